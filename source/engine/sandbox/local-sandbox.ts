import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pythonHelpersDir } from '../assets';
import { onShutdown } from '../lifecycle';
import { scrubEnv } from '../secrets';
import { readInside } from '../workspace/inside';
import { collect } from './run-process';
import type { ExitStatus, RunOptions, RunResult, Sandbox, SandboxProcess, SpawnOptions } from './sandbox';

/**
 * Runs processes directly on this machine, in the workspace folder. Each process leads its own
 * process group so that a timeout or Ctrl-C kills whatever the tests started, too. They start
 * without the secrets of tenet's environment (API keys, tokens, passwords, the providers'
 * variables), as in a container: the agent's commands and the code it writes never see them.
 */
export class LocalSandbox implements Sandbox {
  readonly kind = 'local' as const;
  readonly helpersDir = pythonHelpersDir();
  /** What processes start with: `env` scrubbed of secrets, but for the names in `passEnv` (`--pass-env`). */
  readonly env: NodeJS.ProcessEnv;
  private readonly live = new Set<SandboxProcess>();
  private readonly unregister: () => void;

  constructor(
    readonly workdir: string,
    env: NodeJS.ProcessEnv = process.env,
    passEnv: readonly string[] = [],
  ) {
    this.env = scrubEnv(env, passEnv);
    this.unregister = onShutdown(() => this.killAll());
  }

  spawn(argv: string[], options: SpawnOptions = {}): SandboxProcess {
    const [command, ...args] = argv;
    if (!command) throw new Error('spawn: empty command');
    const child = spawn(command, args, {
      cwd: options.cwd ? join(this.workdir, options.cwd) : this.workdir,
      env: { ...this.env, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    const killGroup = (signal: NodeJS.Signals = 'SIGKILL') => {
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
    const exited = new Promise<ExitStatus>((resolvePromise) => {
      child.once('error', (error: NodeJS.ErrnoException) => {
        const message = error.code === 'ENOENT' ? `command not found: ${command}` : error.message;
        resolvePromise({ exitCode: 127, signal: null, error: message });
      });
      child.once('close', (exitCode, signal) => resolvePromise({ exitCode, signal }));
    });
    const handle: SandboxProcess = { stdin: child.stdin, stdout: child.stdout, stderr: child.stderr, exited, kill: killGroup };
    this.live.add(handle);
    void exited.then(() => {
      this.live.delete(handle);
      // Children the process left behind (daemons, forked workers) go with it.
      killGroup('SIGKILL');
    });
    return handle;
  }

  run(argv: string[], options: RunOptions = {}): Promise<RunResult> {
    return collect(this.spawn(argv, options), options);
  }

  async syncFile(): Promise<void> {
    // The workspace folder is the sandbox's own disk.
  }

  readFile(rel: string): Promise<Buffer> {
    return readInside(this.workdir, rel);
  }

  async dispose(): Promise<void> {
    this.killAll();
    this.unregister();
  }

  private killAll(): void {
    for (const child of this.live) child.kill('SIGKILL');
  }
}
