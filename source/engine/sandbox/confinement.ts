import { spawnSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { TenetError } from '../errors';
import { findProgram } from './launcher';

/**
 * How the local sandbox holds its processes: under bubblewrap (`bwrap`), as Claude Code confines
 * its commands. Every process of the sandbox (the agent's shell, pdb, THM, the tests, the code
 * under evaluation) then sees the filesystem read-only but its workspace and a private /tmp, no
 * network (unless `network`), its own PID namespace (tenet's /proc/<pid>/environ is out of
 * sight), no capabilities and no new privileges.
 */
export interface Confinement {
  /** The bwrap program. */
  bwrap: string;
  /** `--network`: the processes share this machine's network. */
  network: boolean;
}

/** The private, empty /tmp of a confined process; tenet's own folders under it are bound in. */
const PRIVATE_TMP = '/tmp';

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
      [...NAMESPACES, '--ro-bind', '/', '/', '--proc', '/proc', '--dev', '/dev', '--', 'true'],
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
export function requireConfinement(network: boolean, env: NodeJS.ProcessEnv = process.env): Confinement {
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
  return { bwrap, network };
}

/** Whether `path` is `folder` or inside it. */
function within(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/**
 * The folders under /tmp a confined process must still read: where its interpreter lives (a
 * virtual environment made under /tmp, a version manager's shims) and tenet's helpers. Each is
 * bound read-only as its top folder under /tmp, so the interpreter's neighbours (`lib/`,
 * `pyvenv.cfg`) come with it.
 */
function readableUnderTmp(paths: readonly string[]): string[] {
  const tops = new Set<string>();
  for (const given of paths) {
    if (!given || !isAbsolute(given)) continue;
    for (const path of [resolve(given), real(given)]) {
      if (!path || !within(path, PRIVATE_TMP) || path === PRIVATE_TMP) continue;
      const top = relative(PRIVATE_TMP, path).split(sep)[0]!;
      tops.add(resolve(PRIVATE_TMP, top));
    }
  }
  return [...tops].filter((top) => existsSync(top)).sort();
}

function real(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

export interface ConfinedCommand {
  /** Writable: the workspace (or the folder a check runs in). */
  workdir: string;
  /** The working folder inside it. */
  cwd: string;
  argv: string[];
  /** Programs and folders the command needs to read though they are under /tmp (see readableUnderTmp). */
  reads: readonly string[];
}

/**
 * The argv that runs `command.argv` confined. bwrap itself is started by `sh`, ignoring SIGINT:
 * Ctrl-C (the debugger's interrupt) goes to the process group, and bwrap would die of it and take
 * the whole sandbox along; ignored, it reaches the command, whose launcher restores it.
 */
export function confinedArgv(confinement: Confinement, command: ConfinedCommand): string[] {
  const workdir = resolve(command.workdir);
  const binds = [
    ...['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', PRIVATE_TMP],
    ...readableUnderTmp(command.reads)
      .filter((top) => !within(top, workdir))
      .flatMap((top) => ['--ro-bind', top, top]),
    ...['--bind', workdir, workdir],
  ];
  const bwrapArgs = [
    ...NAMESPACES,
    ...(confinement.network ? [] : ['--unshare-net']),
    '--cap-drop',
    'ALL',
    ...binds,
    '--chdir',
    command.cwd,
    '--',
  ];
  return ['/bin/sh', '-c', 'trap "" INT; exec "$0" "$@"', confinement.bwrap, ...bwrapArgs, ...command.argv];
}
