import type { BenchTask } from '../bench/task';
import type { TenetConfig } from '../config/config';
import type { ModelFlags } from '../model/create-model';
import type { RunSettings } from '../run/run-settings';

/** Where the per-run image keeps what its tasks need: the spec, the model script, the repositories. */
export const RUN_FOLDER = '/tenet-run';
export const SPEC_FILE = `${RUN_FOLDER}/run.json`;
export const SCRIPT_FILE = `${RUN_FOLDER}/script.json`;
/** Where the API key's Swarm secret is mounted in a task's container. */
export const KEY_FILE = '/run/secrets/tenet-api-key';

/**
 * What a runner container needs to run one task of a run as the coordinator would have: the
 * settings, the model (flags and config, never a key), and each task with its checkout's place
 * in the image. Written into the per-run image as run.json.
 */
export interface RunSpec {
  format: 'tenet-swarm-run';
  /** RunSettings, with T = Infinity written as "all" (JSON has no Infinity). */
  settings: Omit<RunSettings, 'T'> & { T: number | 'all' };
  model: Omit<ModelFlags, 'scriptStart'>;
  config: TenetConfig;
  /** The environment variable the key is given to the model as (OPENAI_API_KEY…), when there is a key. */
  keyVariable?: string;
  tasks: { id: string; task: BenchTask; repo: string }[];
}

export function specSettings(settings: RunSettings): RunSpec['settings'] {
  return { ...settings, T: Number.isFinite(settings.T) ? settings.T : 'all' };
}

export function runSettings(spec: RunSpec): RunSettings {
  return { ...spec.settings, T: spec.settings.T === 'all' ? Infinity : spec.settings.T };
}
