import { AttemptUsage, plusUsage } from './attempt-usage';
import { withRetries, type RetryPolicy } from './retry';
import { StreamWatch } from './stream-watch';
import { ProviderError, type CallOptions, type Model, type ModelRequest, type ModelResponse } from './types';
import type { Usage } from '../protocol/messages';

export interface ProviderSettings {
  model: string;
  apiKey: string;
  baseUrl?: string;
  /** Wait for the response headers, and then at most this long between two stream chunks. */
  timeoutMs: number;
  retry: RetryPolicy;
}

/** How both SDK clients are made: the key, the base URL, the timeout; retries are ours (visible as events), not the SDK's silent ones. */
export interface ClientOptions {
  apiKey: string;
  baseURL?: string;
  maxRetries: 0;
  timeout: number;
}

/** Who serves each provider's models by default, and how a base URL is introduced in the label. */
export const PROVIDER_NAMES = {
  openai: { vendor: 'OpenAI', server: 'OpenAI-compatible, ' },
  anthropic: { vendor: 'Anthropic', server: 'Anthropic API at ' },
} as const;

/** What the UI shows for a model behind a provider's SDK: the model, and who serves it. */
export function sdkModelLabel(
  settings: Pick<ProviderSettings, 'model' | 'baseUrl'>,
  provider: keyof typeof PROVIDER_NAMES,
): string {
  const names = PROVIDER_NAMES[provider];
  return settings.baseUrl
    ? `${settings.model} (${names.server}${settings.baseUrl})`
    : `${settings.model} (${names.vendor})`;
}

/**
 * A model behind a vendor's SDK: named after the model and who serves it, each call a streamed
 * attempt (`once`, watched for stalls) that tenet retries itself.
 */
export abstract class SdkModel<Client> implements Model {
  abstract readonly provider: string;
  readonly label: string;
  protected readonly client: Client;

  constructor(
    protected readonly settings: ProviderSettings,
    provider: keyof typeof PROVIDER_NAMES,
    makeClient: (options: ClientOptions) => Client,
  ) {
    this.label = sdkModelLabel(settings, provider);
    this.client = makeClient({
      apiKey: settings.apiKey,
      ...(settings.baseUrl ? { baseURL: settings.baseUrl } : {}),
      maxRetries: 0,
      timeout: settings.timeoutMs,
    });
  }

  get name(): string {
    return this.settings.model;
  }

  async complete(request: ModelRequest, options: CallOptions = {}): Promise<ModelResponse> {
    const failed: AttemptUsage[] = [];
    // The provider billed the attempts cut mid-stream too: what they used goes with the answer, or
    // (no answer) to onUnanswered, so every count and cost (events, result, show, bench report, limits) has them.
    const spent = async () => {
      const used = await Promise.all(failed.map((attempt) => attempt.used(request)));
      return used.reduce<Usage | undefined>((sum, cut) => (cut ? (sum ? plusUsage(sum, cut) : cut) : sum), undefined);
    };
    let response: ModelResponse;
    try {
      response = await withRetries(
        async () => {
          const attempt = new AttemptUsage();
          try {
            return await this.once(
              request,
              attempt.watching(options),
              new StreamWatch(this.settings.timeoutMs, options.signal),
              attempt,
            );
          } catch (error) {
            failed.push(attempt);
            throw error;
          }
        },
        this.settings.retry,
        options,
      );
    } catch (error) {
      // Given up (after its retries, or on an error retrying cannot fix), or cancelled: the
      // provider bills the input and the output it streamed until the cancel all the same.
      const lost = error instanceof ProviderError || options.signal?.aborted ? await spent() : undefined;
      if (lost) options.onUnanswered?.(lost);
      throw error;
    }
    const lost = await spent();
    return lost ? { ...response, usage: plusUsage(response.usage, lost) } : response;
  }

  /** One attempt; `attempt` is told of each chunk and of the usage the provider reports, for when the stream is cut. */
  protected abstract once(
    request: ModelRequest,
    options: CallOptions,
    watch: StreamWatch,
    attempt: AttemptUsage,
  ): Promise<ModelResponse>;
}
