import { spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { existsSync, realpathSync } from 'node:fs';
import { basename, delimiter, dirname, isAbsolute, join } from 'node:path';
import { pythonHelpersDir } from '../assets';
import { onShutdown } from '../lifecycle';
import { scrubEnv } from '../secrets';
import { readableRoots, within } from './allowed-view';
import { lookForSockets } from './host-sockets';
import { confinedArgv, shownRoots, type Confinement } from './confinement';
import { findProgram, launcherPrefix, prepareLauncher } from './launcher';
import { readInside } from '../workspace/inside';
import { processEnded } from '../util/processes';
import { collect } from './run-process';
import type { ExitStatus, ProcessRunOptions, CompletedProcess, Sandbox, SandboxProcess, SpawnOptions } from './sandbox';

/**
 * Runs processes directly on this machine, in the workspace folder. Each process leads its own
 * process group so that a timeout or Ctrl-C kills whatever the tests started, too. They start
 * without the secrets of tenet's environment (API keys, tokens, passwords, the providers'
 * variables), as in a container: the agent's commands and the code it writes never see them.
 * With a `confinement` (the default: see confinement.ts) every process starts under bubblewrap.
 */
export class LocalSandbox implements Sandbox {
  readonly kind = 'local' as const;
  readonly helpersDir = pythonHelpersDir();
  /** What processes start with: `env` scrubbed of secrets, but for the names in `passEnv` (`--pass-env`). */
  readonly env: NodeJS.ProcessEnv;
  /** Running processes, with the launcher's pid when one supervises them. */
  private readonly live = new Map<SandboxProcess, number | undefined>();
  private readonly unregister: () => void;

  constructor(
    readonly workdir: string,
    env: NodeJS.ProcessEnv = process.env,
    passEnv: readonly string[] = [],
    /** Undefined: `--sandbox local-unconfined`, processes run as tenet does. */
    private confinement?: Confinement,
  ) {
    this.env = scrubEnv(env, passEnv);
    this.unregister = onShutdown(() => this.killAll());
  }

  get confined(): boolean {
    return this.confinement !== undefined;
  }

  unseen(paths: readonly string[], program?: string): string[] {
    if (!this.confinement) return [];
    const launcher = launcherPrefix(this.env)?.[0];
    const shown = shownRoots(this.confinement, [
      this.helpersDir,
      ...installationOf(launcher ?? ''),
      ...installationOf(program ?? ''),
    ]);
    return [...new Set(paths)].filter((path) => isAbsolute(path) && existsSync(path) && !shown(path));
  }

  show(paths: readonly string[]): void {
    if (!this.confinement) return;
    this.confinement = { ...this.confinement, reads: [...this.confinement.reads, ...paths] };
    void this.lookAhead();
  }

  /** Finds the launcher's interpreter, and looks through the folders shown for sockets (see host-sockets.ts), without blocking. */
  async prepare(versionDir?: string): Promise<void> {
    await prepareLauncher(this.env, versionDir);
    await this.lookAhead();
  }

  /** The folders every process is shown, looked through for sockets now, so that no spawn waits for it. */
  private lookAhead(): Promise<void> {
    if (!this.confinement) return Promise.resolve();
    const launcher = launcherPrefix(this.env)?.[0];
    return lookForSockets(
      readableRoots([...this.confinement.reads, this.helpersDir, ...installationOf(launcher ?? '')]),
    );
  }

  spawn(argv: string[], options: SpawnOptions = {}): SandboxProcess {
    const [command, ...args] = argv;
    if (!command) throw new Error('spawn: empty command');
    const cwd = options.cwd ? join(this.workdir, options.cwd) : this.workdir;
    const env = { ...this.env, ...options.env };
    const launcher = launcherPrefix(env);
    // The launcher always starts: a program that is not there is caught here, as Node would.
    if (launcher && !findProgram(command, env.PATH, cwd)) return missing(command);
    const direct = launcher ? [...launcher, command, ...args] : [command, ...args];
    const [program, ...rest] = this.confine(direct, cwd, env, [launcher?.[0] ?? '', command]);
    const child = spawn(program!, rest, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    const signalGroup = (signal: NodeJS.Signals) => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, signal);
      } catch {
        try {
          child.kill(signal);
        } catch {
          // already gone
        }
      }
    };
    let ended = false;
    let killed = false;
    /**
     * SIGKILL means everything: the launcher (a subreaper) kills every process below it, those
     * that left the group with setsid or a double fork included, then exits. Without it, or if
     * it does not exit, the group is killed.
     */
    const kill = (signal: NodeJS.Signals = 'SIGKILL') => {
      if (signal !== 'SIGKILL' || !launcher || child.pid === undefined || ended) return signalGroup(signal);
      killed = true;
      try {
        process.kill(child.pid, 'SIGTERM');
      } catch {
        return signalGroup('SIGKILL');
      }
      setTimeout(() => !ended && signalGroup('SIGKILL'), 2000).unref();
    };
    const exited = new Promise<ExitStatus>((resolvePromise) => {
      child.once('error', (error: NodeJS.ErrnoException) => {
        const message = error.code === 'ENOENT' ? `command not found: ${command}` : error.message;
        resolvePromise({ exitCode: 127, signal: null, error: message });
      });
      child.once('exit', (exitCode, reported) => {
        ended = true;
        // A launcher stopped before it could catch SIGTERM dies of it: still the kill asked for.
        const signal = killed && reported === 'SIGTERM' ? 'SIGKILL' : reported;
        // Output still in the pipes comes in before 'close'; a process that kept them open (one
        // that escaped the group, where there is no launcher) is not waited for.
        const drained = setTimeout(() => {
          child.stdout.destroy();
          child.stderr.destroy();
          resolvePromise({ exitCode, signal });
        }, 500);
        child.once('close', () => {
          clearTimeout(drained);
          resolvePromise({ exitCode, signal });
        });
      });
    });
    const handle: SandboxProcess = { stdin: child.stdin, stdout: child.stdout, stderr: child.stderr, exited, kill };
    this.live.set(handle, launcher ? child.pid : undefined);
    void exited.then(() => {
      this.live.delete(handle);
      // Children the process left behind in its group (daemons, forked workers) go with it.
      signalGroup('SIGKILL');
    });
    return handle;
  }

  /**
   * The one place a local process is confined. Its temporary files go to its private /tmp: a
   * TMPDIR of tenet's own would not be there. It is shown its programs' installations (an
   * interpreter's prefix: `…/versions/3.11.7` for `…/versions/3.11.7/bin/python3`), tenet's
   * helpers and the folders on PYTHONPATH, beyond what the confinement shows.
   */
  private confine(argv: string[], cwd: string, env: NodeJS.ProcessEnv, programs: string[]): string[] {
    if (!this.confinement) return argv;
    if (env.TMPDIR !== undefined) env.TMPDIR = '/tmp';
    const hidden = this.confinement.hidden;
    const reads = [
      ...programs.flatMap(installationOf),
      this.helpersDir,
      // Not the developer's checkout, where PYTHONPATH names it: the workspace stands for it.
      ...(env.PYTHONPATH ?? '')
        .split(delimiter)
        .filter((entry) => isAbsolute(entry) && !hidden.some((away) => within(entry, away))),
    ];
    return confinedArgv(this.confinement, { workdir: this.workdir, cwd, argv, reads });
  }

  run(argv: string[], options: ProcessRunOptions = {}): Promise<CompletedProcess> {
    return collect(this.spawn(argv, options), options);
  }

  async syncFile(): Promise<void> {
    // The workspace folder is the sandbox's own disk.
  }

  async syncFiles(): Promise<void> {
    // As syncFile.
  }

  readFile(rel: string): Promise<Buffer> {
    return readInside(this.workdir, rel);
  }

  async dispose(): Promise<void> {
    this.killAll();
    this.unregister();
  }

  /**
   * Everything, now: also the exit hook's path (Ctrl-C, SIGTERM), where nothing can be awaited, so
   * it waits here (up to 3 s) for the launchers to have killed what they supervise, before the
   * workspace those processes run in is removed.
   */
  private killAll(): void {
    const launchers = [...this.live.values()].filter((pid): pid is number => pid !== undefined);
    for (const child of this.live.keys()) child.kill('SIGKILL');
    waitUntilDone(launchers, 3000);
    for (const pid of launchers) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // the group is gone
      }
    }
  }
}

/**
 * Where a program is installed: the prefix of `PREFIX/bin/NAME` (an interpreter's, with its
 * standard library and packages), else its folder; for the program's real file too, where a link
 * leads elsewhere (a virtual environment's `python`).
 */
function installationOf(program: string): string[] {
  if (!program || !isAbsolute(program)) return [];
  const files = [program];
  try {
    files.push(realpathSync(program));
  } catch {
    // not there: nothing more to show
  }
  return files.map((file) => {
    const folder = dirname(file);
    return basename(folder) === 'bin' ? dirname(folder) : folder;
  });
}

/** A program that does not exist: what spawning it directly would give (exit 127, "command not found"). */
function missing(command: string): SandboxProcess {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  stdout.end();
  stderr.end();
  return {
    stdin,
    stdout,
    stderr,
    exited: Promise.resolve({ exitCode: 127, signal: null, error: `command not found: ${command}` }),
    kill: () => undefined,
  };
}

/** Blocks (the exit hooks cannot await) until these processes ended, or the time is up. */
function waitUntilDone(pids: number[], timeoutMs: number): void {
  const nap = new Int32Array(new SharedArrayBuffer(4));
  const deadline = Date.now() + timeoutMs;
  while (pids.some((pid) => !processEnded(pid)) && Date.now() < deadline) Atomics.wait(nap, 0, 0, 5);
}
