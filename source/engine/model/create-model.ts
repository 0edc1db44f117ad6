import { TenetError } from '../errors';
import type { TenetConfig } from '../config/config';
import type { ModelSettings } from '../protocol/settings';
import { modelInfo } from './catalogue';
import { priceOf, type Pricing } from './pricing';
import { lazySdkModel } from './lazy-sdk-model';
import { redactingModel } from './redacting-model';
import { secretRedactor } from '../util/redact';
import { DEFAULT_RETRY } from './retry';
import { loadScript, SCRIPT_FORMAT, ScriptedModel, type Script } from './scripted';
import { checkScriptTools } from './script-tools';
import type { Model } from './types';

export interface ModelFlags {
  provider?: string;
  model?: string;
  baseUrl?: string;
  /** `--provider scripted`: the script file. */
  script?: string;
  /** Turns of the script already played (resume). */
  scriptStart?: number;
  /** `--context-window N`: the model's window in tokens, over the catalogue's and the config's. */
  contextWindow?: number;
}

export interface ModelChoice {
  model: Model;
  /** Unpriced when neither the table nor the config knows the model (the run warns); undefined: nothing to price (a replay). */
  price: Pricing | undefined;
  /** What was used, without secrets, for the session record. */
  settings: ModelSettings;
  /** A real model whose context window neither the catalogue, the config nor a flag gives (the run warns). */
  windowUnknown?: boolean;
}

const DEFAULT_MODELS = { openai: 'gpt-4.1-mini', anthropic: 'claude-sonnet-4-6' } as const;

const NO_MODEL =
  'set OPENAI_API_KEY (or ANTHROPIC_API_KEY); or pass --provider openai --base-url URL for an OpenAI-compatible server (Ollama, vLLM, llama.cpp); ' +
  'or --provider scripted --script FILE to replay a script';

/**
 * The model a run talks to. Layers, later wins: user config, project config, environment
 * (OPENAI_API_KEY, OPENAI_BASE_URL, ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL), flags. With no
 * provider anywhere, `fallback` (the demo's script) is used when given.
 */
export function createModel(
  config: TenetConfig,
  flags: ModelFlags,
  env: NodeJS.ProcessEnv = process.env,
  fallback?: Script,
): ModelChoice {
  // A script given on the command line is the model, as --provider scripted would say (flags win).
  const provider =
    flags.provider ??
    (flags.script ? 'scripted' : undefined) ??
    config.provider ??
    (env.OPENAI_API_KEY ? 'openai' : env.ANTHROPIC_API_KEY ? 'anthropic' : fallback ? 'scripted' : undefined);
  const temperature = config.temperature ?? 0;
  const maxTokens = config.maxTokens ?? 4096;
  const givenWindow = flags.contextWindow ?? config.contextWindow;
  // The answer's tokens come out of the window: a window no larger than them leaves the request nothing.
  if (givenWindow !== undefined && givenWindow < 2 * maxTokens) {
    throw new TenetError(
      `A context window of ${givenWindow} tokens leaves too little for the request: ${maxTokens} of it are kept for the answer (maxTokens).`,
      `give a window of at least ${2 * maxTokens} tokens, or lower maxTokens in the config`,
    );
  }
  const common = {
    timeoutMs: (config.timeoutSec ?? 600) * 1000,
    retry: {
      ...DEFAULT_RETRY,
      maxAttempts: config.maxRetries ?? DEFAULT_RETRY.maxAttempts,
      maxRetryAfterMs:
        config.maxRetryAfterSec !== undefined ? config.maxRetryAfterSec * 1000 : DEFAULT_RETRY.maxRetryAfterMs,
    },
  };
  if (!provider) throw new TenetError('No model is configured.', NO_MODEL);
  if (provider === 'scripted') {
    const script = flags.script ? loadScript(flags.script) : fallback;
    // A tool name the script gets wrong is an error now, not a failed call turns into the run.
    if (script) checkScriptTools(script, flags.script ?? 'the model script');
    // The fix is the missing flag, not a key: an API key would not make a script.
    if (!script)
      throw new TenetError('--provider scripted needs --script FILE.', `pass --script FILE, ${SCRIPT_FORMAT}`);
    return {
      model: new ScriptedModel(script, 0, flags.scriptStart ?? 0),
      price: { input: 0, output: 0 },
      settings: {
        provider,
        model: 'scripted',
        temperature,
        maxTokens,
        ...(givenWindow ? { contextWindow: givenWindow } : {}),
      },
    };
  }
  if (provider !== 'openai' && provider !== 'anthropic')
    throw new TenetError(`Unknown provider ${provider}.`, 'use --provider openai, anthropic or scripted');
  const prefix = provider === 'openai' ? 'OPENAI' : 'ANTHROPIC';
  const baseUrl = flags.baseUrl ?? env[`${prefix}_BASE_URL`] ?? config.baseUrl;
  if (baseUrl !== undefined && !/^https?:$/.test(URL.parse(baseUrl)?.protocol ?? '')) {
    throw new TenetError(
      `The base URL ${JSON.stringify(baseUrl)} is not an http(s) URL.`,
      `pass --base-url (or set ${prefix}_BASE_URL / baseUrl) like http://localhost:11434/v1`,
    );
  }
  const model = flags.model ?? config.model ?? DEFAULT_MODELS[provider];
  const apiKey = env[`${prefix}_API_KEY`];
  if (!apiKey && !baseUrl)
    throw new TenetError(
      `${prefix}_API_KEY is not set.`,
      `export ${prefix}_API_KEY=…, or pass --base-url for a server that needs no key`,
    );
  const settings = { model, apiKey: apiKey || 'none', ...(baseUrl ? { baseUrl } : {}), ...common };
  const info = modelInfo(model);
  const contextWindow = givenWindow ?? info?.window;
  // The provider answers 400 to every call asking for a longer answer than the model gives: said now, not at the first call.
  if (info?.maxOutput && maxTokens > info.maxOutput) {
    throw new TenetError(
      `maxTokens ${maxTokens} is more than ${model} answers (at most ${info.maxOutput} tokens): the provider would refuse every call.`,
      `set maxTokens to ${info.maxOutput} or less in the config`,
    );
  }
  return {
    // Nothing secret of this environment is sent, whatever a tool printed.
    model: redactingModel(lazySdkModel(provider, settings), secretRedactor(env)),
    price: priceOf(model, config.prices) ?? { unpriced: true, model },
    settings: {
      provider,
      model,
      ...(baseUrl ? { baseUrl } : {}),
      temperature,
      maxTokens,
      ...(contextWindow ? { contextWindow } : {}),
    },
    ...(contextWindow ? {} : { windowUnknown: true }),
  };
}
