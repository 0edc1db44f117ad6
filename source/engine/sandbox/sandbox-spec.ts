import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
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
  /** `--pass-env NAME` (repeatable): let a variable that looks like a secret through to the sandbox. */
  passEnv?: string[];
  /** `--read PATH` (repeatable): show a path read-only to the confined local sandbox. */
  read?: string[];
}

/**
 * Where Python runs: flags, then the config (`sandbox`, `image`, `dockerHost`, `docker: {…}`), then
 * `$TENET_SANDBOX`; local by default (confined by bubblewrap; `local-unconfined` runs without it).
 * `--image` or `--docker-host` alone mean Docker.
 */
export function sandboxSpec(
  flags: SandboxFlags,
  config: TenetConfig = {},
  env: NodeJS.ProcessEnv = process.env,
): SandboxSpec {
  const implied = flags.image || flags.dockerHost ? 'docker' : undefined;
  const kind = flags.sandbox ?? implied ?? config.sandbox ?? env.TENET_SANDBOX ?? 'local';
  const passEnv = flags.passEnv?.length ? { passEnv: flags.passEnv } : {};
  const read = [...(config.readPaths ?? []), ...(flags.read ?? [])].map((path) => shownPath(path));
  if (kind === 'local')
    return {
      kind: 'local',
      ...passEnv,
      ...(flags.network ? { network: true as const } : {}),
      ...(read.length ? { reads: [...new Set(read)] } : {}),
    };
  if (kind === 'local-unconfined') return { kind: 'local', ...passEnv, unconfined: true };
  if (kind !== 'docker')
    throw new TenetError(
      `Unknown sandbox ${kind}.`,
      'use --sandbox local, --sandbox local-unconfined or --sandbox docker',
    );
  const docker = config.docker ?? {};
  const host = flags.dockerHost ?? config.dockerHost;
  return {
    kind: 'docker',
    image: flags.image ?? config.image ?? DEFAULT_IMAGE,
    ...(host ? { host } : {}),
    ...((flags.mount ?? docker.mount) ? { mount: true } : {}),
    ...passEnv,
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

/** A path to show the sandbox: absolute, and there (a typo would show nothing and say nothing). */
function shownPath(path: string): string {
  const absolute = resolve(path);
  if (!existsSync(absolute))
    throw new TenetError(`--read ${path}: there is no such file or folder.`, 'name a path that exists on this machine');
  if (absolute === '/')
    throw new TenetError('--read /: that would show the whole machine to the sandbox.', 'name the folders it needs');
  return absolute;
}

/** How a session records its sandbox (no secrets in it), and how resume/rerun read it back. */
export function describeSandbox(spec: SandboxSpec): RecordedSandbox {
  // The names let through, never their values (those come from the environment of the resume).
  const passEnv = spec.passEnv?.length ? { passEnv: spec.passEnv } : {};
  if (spec.kind === 'local')
    return {
      kind: 'local',
      confinement: spec.unconfined ? 'none' : 'bubblewrap',
      ...(spec.network ? { network: true } : {}),
      ...(spec.reads?.length ? { reads: spec.reads } : {}),
      ...passEnv,
    };
  return { kind: 'docker', image: spec.image, host: spec.host, mount: !!spec.mount, limits: spec.limits, ...passEnv };
}

/** The sandbox a session recorded (see describeSandbox); local for sessions from before sandboxes. */
export function recordedSandbox(recorded: RecordedSandbox | undefined): SandboxSpec {
  const passEnv = recorded?.passEnv?.length ? { passEnv: recorded.passEnv } : {};
  if (recorded?.kind === 'local' && recorded.confinement === 'none')
    return { kind: 'local', unconfined: true, ...passEnv };
  if (recorded?.kind !== 'docker' || !recorded.image || !recorded.limits)
    return {
      kind: 'local',
      ...(recorded?.kind === 'local' && recorded.network ? { network: true as const } : {}),
      ...(recorded?.kind === 'local' && recorded.reads?.length ? { reads: recorded.reads } : {}),
      ...passEnv,
    };
  return {
    kind: 'docker',
    image: recorded.image,
    limits: recorded.limits,
    ...(recorded.host ? { host: recorded.host } : {}),
    ...(recorded.mount ? { mount: true } : {}),
    ...passEnv,
  };
}

/** Which sandbox ran, in words: `local (bubblewrap)`, `local-unconfined`, `docker (IMAGE)`. */
export function sandboxWords(recorded: RecordedSandbox | undefined): string {
  if (!recorded) return 'local';
  if (recorded.kind === 'docker') return `docker (${recorded.image})`;
  // Sessions from before confinement record no `confinement`: they ran unconfined.
  if (recorded.confinement !== 'bubblewrap') return 'local-unconfined';
  const extras = [
    ...(recorded.network ? ['with network'] : []),
    ...(recorded.reads?.length ? [`reading ${recorded.reads.join(', ')}`] : []),
  ];
  return `local (bubblewrap${extras.map((extra) => `, ${extra}`).join('')})`;
}
