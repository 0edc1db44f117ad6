import type { ContainerLimits } from '../protocol/settings';
import { requireConfinement, type Confinement } from './confinement';
import { LocalSandbox } from './local-sandbox';
import type { Sandbox } from './sandbox';

/** Where a task's Python runs: on this machine, or in a container of a Docker engine. */
export type SandboxSpec =
  | {
      kind: 'local';
      /** `--pass-env`: variables let through to the sandbox's processes although they look like secrets. */
      passEnv?: string[];
      /** `--sandbox local-unconfined`: processes run without bubblewrap. */
      unconfined?: true;
      /** `--network`: confined processes keep this machine's network. */
      network?: true;
      /** `--read PATH`, the user config's `readPaths`: shown read-only to confined processes. */
      reads?: string[];
    }
  | {
      kind: 'docker';
      /** `--pass-env`: variables of tenet's environment given to the container's processes. */
      passEnv?: string[];
      image: string;
      /** `--docker-host`; else DOCKER_HOST, else the local socket. */
      host?: string;
      /** Bind-mount the workspace instead of copying it in. */
      mount?: boolean;
      limits: ContainerLimits;
    };

export const LOCAL: SandboxSpec = { kind: 'local' };

/**
 * A sandbox over a workspace folder; `session` labels a container so `tenet gc` can find it. A
 * local one is confined as `confinement` says (a task's, which shows its interpreter's folders),
 * else as the spec does.
 */
export async function openSandbox(
  spec: SandboxSpec,
  workspaceRoot: string,
  session: string,
  env: NodeJS.ProcessEnv = process.env,
  confinement?: Confinement,
): Promise<Sandbox> {
  if (spec.kind === 'local')
    return new LocalSandbox(workspaceRoot, env, spec.passEnv, confinement ?? localConfinement(spec, env));
  // Loaded on demand: a local run never pays for the Docker client.
  const { DockerSandbox } = await import('./docker/docker-sandbox');
  return DockerSandbox.create(workspaceRoot, {
    image: spec.image,
    limits: spec.limits,
    session,
    env,
    ...(spec.host ? { host: spec.host } : {}),
    ...(spec.mount ? { mount: true } : {}),
    ...(spec.passEnv?.length ? { passEnv: spec.passEnv } : {}),
  });
}

/**
 * How a local sandbox confines its processes: bubblewrap, unless `--sandbox local-unconfined`.
 * Where bwrap is missing or refused, a TenetError says so in one line with the fix: tenet never
 * falls back to running unconfined on its own.
 */
export function localConfinement(spec: SandboxSpec, env: NodeJS.ProcessEnv = process.env): Confinement | undefined {
  if (spec.kind !== 'local' || spec.unconfined) return undefined;
  return requireConfinement(spec.network === true, env, spec.reads ?? []);
}
