import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { TenetError } from '../errors';
import { cacheRoot } from '../util/cache-dir';
import { stateDir } from '../util/state-dir';
import { allowedView, isSystemPath, readableRoots, real, systemView, within } from './allowed-view';
import { socketsUnder } from './host-sockets';
import { unixSocketFilterFile } from './seccomp';
import { findProgram } from './launcher';

/**
 * How the local sandbox holds its processes: under bubblewrap (`bwrap`), as Claude Code and
 * Codex confine their commands. Every process of the sandbox (the agent's shell, pdb, THM, the
 * tests, the code under evaluation) sees only what its task needs (see allowed-view.ts): no home
 * folder, no state of tenet's, no other workspace, no Unix socket of the host. It has no network
 * (unless `network`), its own PID namespace (tenet's /proc/<pid>/environ is out of sight), no
 * capabilities and no new privileges.
 */
export interface Confinement {
  /** The bwrap program. */
  bwrap: string;
  /** `--network`: the processes share this machine's network (but make no Unix sockets: see seccomp.ts). */
  network: boolean;
  /** Shown read-only beyond the system's: `--read` paths, and the interpreter's folders once checked. */
  reads: readonly string[];
  /** Never shown, even inside a path of `reads`: the developer's checkout (the workspace stands for it), tenet's state. */
  hidden: readonly string[];
}

const probed = new Map<string, string | undefined>();

/**
 * Why bwrap cannot confine here (undefined: it can), tried once per program and tenet process
 * with the namespaces a sandbox uses: a bwrap without user namespaces (or inside a container
 * that forbids them) is refused by the kernel, not by its arguments.
 */
function whyNotConfined(bwrap: string): string | undefined {
  if (!probed.has(bwrap)) {
    const tried = spawnSync(
      bwrap,
      // Only the system's folders: a bind of all of / also remounts every mount under it, and one
      // that changes meanwhile (a container's overlay under /var/lib/docker) fails the probe.
      [...NAMESPACES, ...systemView(), '--proc', '/proc', '--dev', '/dev', '--', 'true'],
      { encoding: 'utf8', timeout: 10_000 },
    );
    const said = (tried.stderr ?? '').trim().split('\n')[0];
    probed.set(
      bwrap,
      tried.status === 0 ? undefined : said || tried.error?.message || `exit ${tried.status ?? tried.signal}`,
    );
  }
  return probed.get(bwrap);
}

const NAMESPACES = ['--unshare-pid', '--unshare-ipc', '--unshare-uts', '--die-with-parent'];

/**
 * The confinement of a local sandbox, or a refusal in one line that says what to do. `TENET_BWRAP`
 * names another bwrap (tests point it at nothing to see the refusal).
 */
export function requireConfinement(
  network: boolean,
  env: NodeJS.ProcessEnv = process.env,
  reads: readonly string[] = [],
): Confinement {
  const withoutIt = 'or pass --sandbox local-unconfined to run without confinement';
  const bwrap = env.TENET_BWRAP ?? findProgram('bwrap', env.PATH, '/');
  if (!bwrap || !existsSync(bwrap)) {
    throw new TenetError(
      `bubblewrap (bwrap) is not installed, so tenet cannot confine the local sandbox: install it (apt-get install bubblewrap) ${withoutIt}.`,
    );
  }
  const refused = whyNotConfined(bwrap);
  if (refused !== undefined) {
    throw new TenetError(
      `bubblewrap cannot confine the local sandbox here (${refused}): enable unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, or run outside a container that forbids them) ${withoutIt}.`,
    );
  }
  const sessions = env.TENET_SESSIONS_DIR ? [resolve(env.TENET_SESSIONS_DIR)] : [];
  return { bwrap, network, reads, hidden: [stateDir(env), cacheRoot(env), ...sessions] };
}

/** Whether a confined process that reads `reads` too is shown `path` (the system's folders, or under a shown root). */
export function shownRoots(confinement: Confinement, reads: readonly string[]): (path: string) => boolean {
  const roots = readableRoots([...confinement.reads, ...reads]);
  return (path) => isSystemPath(path) || roots.some((root) => within(resolve(path), root));
}

export interface ConfinedCommand {
  /** Writable: the workspace (or the folder a check runs in). */
  workdir: string;
  /** The working folder inside it. */
  cwd: string;
  argv: string[];
  /** Programs and folders the command needs to read: shown read-only with the confinement's own (see readableRoots). */
  reads: readonly string[];
}

/**
 * The argv that runs `command.argv` confined. bwrap itself is started by `sh`, ignoring SIGINT:
 * Ctrl-C (the debugger's interrupt) goes to the process group, and bwrap would die of it and take
 * the whole sandbox along; ignored, it reaches the command, whose launcher restores it.
 */
export function confinedArgv(confinement: Confinement, command: ConfinedCommand): string[] {
  const workdir = resolve(command.workdir);
  // Where each hidden folder really is: a shown path that leads elsewhere is a link to its real
  // location (allowedView), so the cover goes there, and holds under both names.
  const hidden = confinement.hidden.map((path) => real(path) ?? resolve(path));
  const roots = readableRoots([...confinement.reads, ...command.reads]);
  const view = allowedView({ workdir, reads: roots, sockets: socketsUnder(roots) });
  // What is hidden inside a shown folder is covered by an empty one (never the workspace itself).
  const covered = hidden
    .filter((away) => roots.some((root) => within(away, root) && root !== away) && !within(workdir, away))
    .flatMap((away) => (existsSync(away) ? ['--tmpfs', away] : []));
  // Sharing the network, a process would share the host's abstract Unix sockets too: it makes none.
  const filter = confinement.network ? unixSocketFilterFile() : undefined;
  if (confinement.network && !filter)
    throw new TenetError(
      `tenet cannot keep the host's Unix sockets from a sandbox with --network on ${process.arch}.`,
      'run without --network, or with --sandbox docker --network',
    );
  const bwrapArgs = [
    ...NAMESPACES,
    ...(filter ? ['--seccomp', '3'] : ['--unshare-net']),
    '--cap-drop',
    'ALL',
    ...view,
    ...covered,
    '--chdir',
    command.cwd,
    '--',
  ];
  const opens = filter ? ` 3<'${filter}'` : '';
  return ['/bin/sh', '-c', `trap "" INT; exec "$0" "$@"${opens}`, confinement.bwrap, ...bwrapArgs, ...command.argv];
}
