import type Docker from 'dockerode';
import { constants } from 'node:os';
import { PassThrough, Writable, type Duplex } from 'node:stream';
import type { ExitStatus, SandboxProcess } from '../sandbox';

/** Where each exec notes its process id inside the container, so it can be killed. */
export const PID_DIR = '/tmp/.tenet-exec';

const SIGNAL_NAMES = new Map(Object.entries(constants.signals).map(([name, number]) => [number, name]));

/**
 * Docker has no API to kill an exec. Every exec therefore starts as `sh`, which notes its pid and
 * runs the command as its child. Docker makes each exec the leader of its own session and process
 * group, so `kill -9 -PID` takes the command and whatever it started. The command runs under
 * tenet's launcher (`reaper`, source/python/_tenet_launch.py) as it does locally: a subreaper, so
 * what the command starts stays below it however it leaves the group (setsid, a double fork, a
 * cleared environment), and all of it is killed when the command ends; the launcher ends as the
 * command did. (A scan of /proc for the mark alone misses processes forked after it looked, and
 * those it cannot read at that moment, in the middle of an exec.) Then the shell sends TERM to
 * what is left in the group and kills what carries the mark: all there is to do where python3 or
 * its ctypes is missing. The shell itself catches INT and TERM (a caught signal is reset for its
 * child; the launcher ignores INT), so an interrupt reaches the command, not them.
 * The process limit is dash's `ulimit -p` (bash's `-u`), whichever `sh` the image has.
 * A program the shell cannot find is caught before it is run, with a line of its own on stderr
 * (NOT_FOUND), so that exit code 127 alone never means "not found": a command may exit 127 itself.
 */
const launcher = (pidFile: string, mark: string, reaper: string | undefined, nproc?: number) =>
  [
    'trap : INT TERM',
    `command -v "$1" >/dev/null 2>&1 || { printf '${NOT_FOUND}%s\\n' "$1" >&2; exit 127; }`,
    ...(nproc ? [`ulimit -p ${nproc} 2>/dev/null || ulimit -u ${nproc} 2>/dev/null`] : []),
    `echo $$ > ${pidFile}`,
    `export ${MARK}=${mark}`,
    reaper ? `if command -v python3 >/dev/null 2>&1; then python3 -I -S '${reaper}' "$@"; else "$@"; fi` : '"$@"',
    'status=$?',
    'kill -TERM 0 2>/dev/null',
    sweep(mark),
    `rm -f ${pidFile}`,
    'exit $status',
  ].join('; ');
/**
 * Every process of one exec carries its mark in its environment. Those that left its process
 * group (setsid, a double fork) are found by it and killed with a kill (which takes the launcher
 * down with the group), and after the command when there is no launcher. (A process that clears
 * its environment escapes this; the container's removal ends it.)
 */
const MARK = 'TENET_EXEC';
const sweep = (mark: string) =>
  `for p in /proc/[0-9]*; do [ "\${p#/proc/}" = "$$" ] || ! grep -qsxz '${MARK}=${mark}' "$p/environ" 2>/dev/null || kill -9 "\${p#/proc/}" 2>/dev/null; done`;
/** Waits (up to 2 s) for the pid file of an exec that may only just be starting, then signals its group. */
const killer = (pidFile: string, signal: number, mark: string) =>
  `i=0; while [ ! -s ${pidFile} ] && [ $i -lt 20 ]; do sleep 0.1; i=$((i+1)); done; [ -s ${pidFile} ] && kill -${signal} -$(cat ${pidFile}) 2>/dev/null${signal === 9 ? `; rm -f ${pidFile}; ${sweep(mark)}` : ''}`;

let counter = 0;

/** What the launcher writes on stderr, before the program's name, when the program does not exist. */
export const NOT_FOUND = 'tenet-exec: no such command: ';

/** How much of the start of stderr is kept to recognise the launcher's NOT_FOUND line. */
const STDERR_HEAD_BYTES = 4096;

/**
 * The exec's status from Docker's exit code. Docker reports a process killed by signal N as
 * 128 + N, as a shell would. "Not found" is said only when the launcher could not find the program
 * (its NOT_FOUND line is the whole of stderr); any other exit code, 127 included, is the command's own.
 */
export function execStatus(
  code: number | null,
  { killed, program, stderrHead }: { killed: boolean; program: string; stderrHead: string },
): ExitStatus {
  if (code !== null && code > 128 && SIGNAL_NAMES.has(code - 128) && (killed || code - 128 === 9))
    return { exitCode: null, signal: SIGNAL_NAMES.get(code - 128)! };
  if (code === 127 && stderrHead === `${NOT_FOUND}${program}\n`) {
    return { exitCode: 127, signal: null, error: `command not found in the container: ${program}` };
  }
  return { exitCode: code, signal: null };
}

export interface ExecSpec {
  container: Docker.Container;
  argv: string[];
  env: Record<string, string>;
  workingDir: string;
  user?: string;
  /** tenet's launcher (_tenet_launch.py) in the container: the command runs under it when python3 is there. */
  reaper?: string;
  /**
   * A cap on the processes of the container's user, below the container's pids limit: a fork
   * bomb stops there, and tenet can still start the exec that kills it.
   */
  nproc?: number;
}

/**
 * One process in a running container through `exec`, with stdin attached and the multiplexed
 * output split into stdout and stderr, behaving like a local child process: the streams exist at
 * once (the exec starts asynchronously), `exited` resolves once the output is drained.
 */
export function startExec(spec: ExecSpec): SandboxProcess {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const id = `${process.pid}-${++counter}`;
  const pidFile = `${PID_DIR}/${id}`;
  let started = false;
  let killWith: number | undefined;
  let killed = false;

  const kill = (signal: NodeJS.Signals = 'SIGKILL') => {
    const number = constants.signals[signal] ?? 9;
    if (!started) {
      killWith = number;
      return;
    }
    killed = true;
    void runQuiet(spec, ['sh', '-c', killer(pidFile, number, id)]);
  };

  const exited = (async (): Promise<ExitStatus> => {
    let exec: Docker.Exec;
    let socket: Duplex;
    try {
      exec = await spec.container.exec({
        Cmd: ['sh', '-c', launcher(pidFile, id, spec.reaper, spec.nproc), 'tenet-exec', ...spec.argv],
        Env: Object.entries(spec.env).map(([key, value]) => `${key}=${value}`),
        WorkingDir: spec.workingDir,
        AttachStdin: true,
        AttachStdout: true,
        AttachStderr: true,
        Tty: false,
        ...(spec.user ? { User: spec.user } : {}),
      });
      socket = (await exec.start({ hijack: true, stdin: true })) as Duplex;
    } catch (error) {
      stdout.end();
      stderr.end();
      return { exitCode: 127, signal: null, error: `docker exec failed: ${(error as Error).message}` };
    }
    started = true;
    if (killWith !== undefined) kill(SIGNAL_NAMES.get(killWith) as NodeJS.Signals);
    stdin.pipe(socket);
    socket.on('error', () => undefined);
    // stderr passes through a tap that keeps its start, where the launcher's NOT_FOUND line would be.
    let stderrHead = '';
    const stderrTap = new Writable({
      write(chunk: Buffer, _encoding, done) {
        if (stderrHead.length < STDERR_HEAD_BYTES)
          stderrHead += chunk.toString('utf8', 0, STDERR_HEAD_BYTES - stderrHead.length);
        stderr.write(chunk);
        done();
      },
    });
    spec.container.modem.demuxStream(socket, stdout, stderrTap);
    await new Promise<void>((resolve) => {
      socket.once('end', resolve);
      socket.once('close', resolve);
      // Leftovers that ignore TERM and still hold the output would keep it open after the
      // command ended: once Docker says the exec is over, kill its group.
      const watch = setInterval(() => {
        void exec.inspect().then(
          (info) => {
            if (info.Running) return;
            clearInterval(watch);
            void runQuiet(spec, ['sh', '-c', killer(pidFile, 9, id)]).finally(() =>
              setTimeout(() => socket.destroy(), 2000).unref(),
            );
          },
          () => undefined,
        );
      }, 1000);
      socket.once('close', () => clearInterval(watch));
      socket.once('end', () => clearInterval(watch));
    });
    stdout.end();
    stderr.end();
    const info = await exec.inspect().catch(() => undefined);
    return execStatus(info?.ExitCode ?? null, { killed, program: spec.argv[0] ?? '', stderrHead });
  })();

  return { stdin, stdout, stderr, exited, kill };
}

/** Runs a short command in the container and waits for it, ignoring its output (kills, clean-ups). */
export async function runQuiet(spec: Pick<ExecSpec, 'container' | 'user'>, argv: string[]): Promise<number | null> {
  try {
    const exec = await spec.container.exec({
      Cmd: argv,
      AttachStdout: true,
      AttachStderr: true,
      ...(spec.user ? { User: spec.user } : {}),
    });
    const stream = await exec.start({ hijack: true, stdin: false });
    stream.resume();
    await new Promise<void>((resolve) => {
      stream.once('end', resolve);
      stream.once('close', resolve);
    });
    return (await exec.inspect()).ExitCode;
  } catch {
    return null;
  }
}
