import type { TenetConfig } from '../config/config';
import type { RecordedSandbox } from '../protocol/settings';
import { TenetError } from '../errors';
import type { SandboxSpec } from './create-sandbox';
import { DEFAULT_IMAGE } from './docker/names';
import { containerLimits } from './docker/limits';

/** The sandbox flags of `run`, `thm`, `tool`, `demo` and `bench run`, as parsed. */
export interface SandboxFlags {
  sandbox?: string;
  image?: string;
  dockerHost?: string;
  mount?: boolean;
  memory?: string;
  cpus?: number;
  pids?: number;
  network?: boolean;
}

/**
 * Where Python runs: flags, then the config (`sandbox`, `image`, `dockerHost`, `docker: {…}`), then
 * `$TENET_SANDBOX`; local by default. `--image` or `--docker-host` alone mean Docker.
 */
export function sandboxSpec(flags: SandboxFlags, config: TenetConfig = {}, env: NodeJS.ProcessEnv = process.env): SandboxSpec {
  const implied = flags.image || flags.dockerHost ? 'docker' : undefined;
  const kind = flags.sandbox ?? implied ?? config.sandbox ?? env.TENET_SANDBOX ?? 'local';
  if (kind === 'local') return { kind: 'local' };
  if (kind !== 'docker') throw new TenetError(`Unknown sandbox ${kind}.`, 'use --sandbox local or --sandbox docker');
  const docker = config.docker ?? {};
  const host = flags.dockerHost ?? config.dockerHost;
  return {
    kind: 'docker',
    image: flags.image ?? config.image ?? DEFAULT_IMAGE,
    ...(host ? { host } : {}),
    ...((flags.mount ?? docker.mount) ? { mount: true } : {}),
    limits: containerLimits({
      ...(docker.memory !== undefined ? { memory: docker.memory } : {}),
      ...(docker.cpus !== undefined ? { cpus: docker.cpus } : {}),
      ...(docker.pids !== undefined ? { pids: docker.pids } : {}),
      ...(docker.tmp !== undefined ? { tmp: docker.tmp } : {}),
      ...(docker.network !== undefined ? { network: docker.network } : {}),
      ...(flags.memory !== undefined ? { memory: flags.memory } : {}),
      ...(flags.cpus !== undefined ? { cpus: flags.cpus } : {}),
      ...(flags.pids !== undefined ? { pids: flags.pids } : {}),
      ...(flags.network !== undefined ? { network: flags.network } : {}),
    }),
  };
}

/** How a session records its sandbox (no secrets in it), and how resume/rerun read it back. */
export function describeSandbox(spec: SandboxSpec): RecordedSandbox {
  return spec.kind === 'local' ? { kind: 'local' } : { kind: 'docker', image: spec.image, host: spec.host, mount: !!spec.mount, limits: spec.limits };
}

/** The sandbox a session recorded (see describeSandbox); local for sessions from before sandboxes. */
export function recordedSandbox(recorded: RecordedSandbox | undefined): SandboxSpec {
  if (!recorded || recorded.kind !== 'docker' || !recorded.image || !recorded.limits) return { kind: 'local' };
  return { kind: 'docker', image: recorded.image, limits: recorded.limits, ...(recorded.host ? { host: recorded.host } : {}), ...(recorded.mount ? { mount: true } : {}) };
}
