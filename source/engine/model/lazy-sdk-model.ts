import { sdkModelLabel, type ProviderSettings } from './sdk-model';
import type { Model } from './types';

/**
 * A model behind a provider's SDK that loads the SDK at its first call. Loading the two SDKs
 * costs every run-like command about 0.1 CPU-s at start (measured in perf/startup.ts); a run that
 * never calls a model (a scripted one, a replay, one stopped before the first call) skips it, and
 * a run on one provider never loads the other's.
 */
export function lazySdkModel(provider: 'openai' | 'anthropic', settings: ProviderSettings): Model {
  let loaded: Promise<Model> | undefined;
  const load = async (): Promise<Model> => {
    if (provider === 'openai') return new (await import('./openai-provider')).OpenAiModel(settings);
    return new (await import('./anthropic-provider')).AnthropicModel(settings);
  };
  return {
    provider,
    name: settings.model,
    label: sdkModelLabel(settings, provider),
    async complete(request, options) {
      loaded ??= load();
      return (await loaded).complete(request, options);
    },
  };
}
