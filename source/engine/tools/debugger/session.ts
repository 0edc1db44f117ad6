import { randomBytes } from 'node:crypto';
import { DEVELOPER_INTERRUPT, type TranscriptEntry, type Writer } from '../../protocol/debugger';
import type { Sandbox, SandboxProcess } from '../../sandbox/sandbox';
import { CappedText } from '../../sandbox/run-process';
import { MarkerFilter } from './marker-filter';

export type DebuggerEvent =
  | { type: 'input'; who: Writer; input: string; mode: 'shell' | 'pdb' }
  | { type: 'output'; chunk: string }
  | { type: 'entry'; entry: TranscriptEntry }
  | { type: 'restart'; reason: string };

export interface DebuggerOptions {
  /** Environment added to the sandbox's for the shell (PATH with `python`, PYTHONPATH…). */
  env: Record<string, string>;
  /** Per command; on expiry the command gets a Ctrl-C, then the session is restarted if it stays stuck. */
  timeoutMs: number;
  /** Output kept per command (head and tail). */
  maxOutput: number;
}

const PDB_PROMPT = '(Pdb) ';
const INTERRUPT_GRACE_MS = 3000;
/** How long after a command's stdout marker its stderr marker is waited for. */
const STDERR_GRACE_MS = 2000;

/** What one command may stream to the watchers (and so to the session log): its head as it comes, and its tail. */
const STREAM_HEAD_BYTES = 32 * 1024;
const STREAM_TAIL_BYTES = 4 * 1024;

/**
 * Caps one command's live output: the first 32 KB go out as they come, the rest is held to its
 * last 4 KB, which go out when the command ends, after a line saying how many bytes were dropped.
 * `yes` for 30 s once wrote a 6.58 GB session log.
 */
export class StreamCap {
  private sent = 0;
  private dropped = 0;
  private tail = '';

  push(chunk: string): string {
    const room = STREAM_HEAD_BYTES - this.sent;
    const bytes = Buffer.byteLength(chunk);
    if (bytes <= room) {
      this.sent += bytes;
      return chunk;
    }
    // Characters for bytes, near enough: the head ends at most a few bytes past its budget.
    const head = room > 0 ? chunk.slice(0, room) : '';
    this.sent += Buffer.byteLength(head);
    this.tail += chunk.slice(head.length);
    const cut = this.tail.length - STREAM_TAIL_BYTES;
    if (cut > 0) {
      this.dropped += Buffer.byteLength(this.tail.slice(0, cut));
      this.tail = this.tail.slice(cut);
    }
    return head;
  }

  /** What is still to go out when the command ended: the tail, after the count of what was dropped. */
  end(): string {
    const rest = this.dropped ? `\n[tenet: ${this.dropped} bytes of output dropped]\n${this.tail}` : this.tail;
    this.sent = 0;
    this.dropped = 0;
    this.tail = '';
    return rest;
  }
}

/**
 * A persistent shell in the workspace, reached over plain pipes, in which `python -m pdb …`,
 * `pytest --pdb` or a `breakpoint()` open pdb sessions. Each `run` sends one command (one line in
 * pdb) and returns the output up to the next prompt: the shell's end-of-command marker, or pdb's
 * `(Pdb) `. Commands from several writers (the agent, a developer who took it over) are queued, and
 * every exchange is recorded and streamed as events.
 */
export class DebuggerSession {
  readonly transcript: TranscriptEntry[] = [];
  private child?: SandboxProcess;
  private mode: 'shell' | 'pdb' = 'shell';
  private stdoutTail = '';
  private output = new CappedText(0);
  private waiter?: () => void;
  private queue: Promise<unknown> = Promise.resolve();
  /** Commands sent that have not had their answer yet. */
  private pending = 0;
  private readonly listeners = new Set<(event: DebuggerEvent) => void>();
  private readonly marker = `__tenet_done_${randomBytes(6).toString('hex')}__`;
  /** The live output without the end-of-command marker (one per shell: a new shell starts clean). */
  private visible = new MarkerFilter(this.marker);
  /**
   * The marker the shell writes on stderr after a command, once its stdout marker is out: stdout
   * and stderr are two pipes, and an error line (a redirect's `Read-only file system`) may arrive
   * after the stdout marker. The command is done when both are in (or the stderr one is late).
   * It carries the command's number, so that one late past its grace does not end the next command.
   * Each stream is filtered on its own: their order is not kept between them (Docker copies them
   * apart). A marker may follow output that did not end its line; it is found there too.
   */
  private readonly errMarker = `${this.marker}e`;
  private visibleErr = new MarkerFilter(this.errMarker);
  /** The number of the command under way, which its stderr marker carries. */
  private commandNumber = 0;
  /** When this command's stdout marker arrived (its stderr marker is waited for a little longer). */
  private markedAt: number | undefined;
  private exited = false;
  /** This command's live output, capped. */
  private cap = new StreamCap();

  constructor(
    private readonly sandbox: Sandbox,
    private readonly options: DebuggerOptions,
  ) {}

  get currentMode(): 'shell' | 'pdb' {
    return this.mode;
  }

  get running(): boolean {
    return !!this.child && !this.exited;
  }

  /** The workspace as the session's processes see it (pdb prints paths under it). */
  get root(): string {
    return this.sandbox.workdir;
  }

  /** Resolves once every command sent so far has had its answer (or failed). */
  idle(): Promise<void> {
    return this.queue.then(() => undefined);
  }

  /** Whether a command sent has not had its answer yet. */
  /** The developer's Ctrl+C reached the command under way. */
  private interruptedByDeveloper = false;

  get busy(): boolean {
    return this.pending > 0;
  }

  onEvent(listener: (event: DebuggerEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Sends one command (shell) or line(s) (pdb, one at a time) and returns what came back. */
  run(input: string, who: Writer = 'agent', timeoutMs = this.options.timeoutMs): Promise<string> {
    this.pending++;
    const next = this.queue.then(() => this.exchange(input, who, timeoutMs)).finally(() => this.pending--);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Kills the session; the next command starts a fresh shell. */
  async restart(reason = 'restarted on request'): Promise<void> {
    this.kill();
    this.emit({ type: 'restart', reason });
  }

  close(): void {
    this.kill();
  }

  /**
   * Ctrl+C for what runs in the session (a developer's takeover): SIGINT to its process group.
   * pdb breaks into a running `continue`, a program stops; the shell itself traps it and stays.
   */
  interrupt(): void {
    if (!this.running) return;
    // Said with the command's output (the agent reads it; the session keeps it): the developer stopped it, not a timeout.
    if (this.busy) this.interruptedByDeveloper = true;
    this.child!.kill('SIGINT');
  }

  private emit(event: DebuggerEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  /** Output without tenet's markers: kept (capped) for the command's answer, and streamed (capped) to the watchers. */
  private showOutput(chunk: string): void {
    if (!chunk) return;
    this.output.push(chunk);
    const now = this.cap.push(chunk);
    if (now) this.emit({ type: 'output', chunk: now });
  }

  private kill(): void {
    this.child?.kill('SIGKILL');
    this.child = undefined;
    this.mode = 'shell';
    this.exited = false;
  }

  private async ensureStarted(): Promise<void> {
    if (this.child && !this.exited) return;
    this.exited = false;
    this.mode = 'shell';
    const child = this.sandbox.spawn(['bash', '--norc', '--noprofile'], {
      env: { ...this.options.env, PYTHONUNBUFFERED: '1', TERM: 'dumb', PAGER: 'cat' },
    });
    this.child = child;
    this.visible = new MarkerFilter(this.marker);
    this.visibleErr = new MarkerFilter(this.errMarker);
    const onData = (stream: 'stdout' | 'stderr') => (chunk: string) => {
      if (this.child !== child) return;
      if (stream === 'stdout') this.stdoutTail = (this.stdoutTail + chunk).slice(-200);
      this.showOutput(stream === 'stdout' ? this.visible.push(chunk) : this.visibleErr.push(chunk));
      this.waiter?.();
    };
    child.stdout.setEncoding('utf8').on('data', onData('stdout'));
    child.stderr.setEncoding('utf8').on('data', onData('stderr'));
    child.stdin.on('error', () => undefined);
    void child.exited.then(() => {
      if (this.child !== child) return;
      this.exited = true;
      this.waiter?.();
    });
    // A trap (not an ignore, which children would inherit) keeps the shell alive on Ctrl-C.
    await this.send("trap ':' INT; PS1=''; PS2=''", 10_000);
  }

  private finished(): boolean {
    if (this.exited) return true;
    if (this.visible.status !== undefined) {
      // Done once the status line is complete, so none of it spills into the next command, and
      // stderr's marker is in too (or late past its grace: a command that closed the shell's stderr).
      if (this.markedAt === undefined) {
        this.markedAt = Date.now();
        setTimeout(() => this.waiter?.(), STDERR_GRACE_MS).unref();
      }
      return this.visibleErr.status === String(this.commandNumber) || Date.now() - this.markedAt >= STDERR_GRACE_MS;
    }
    return this.stdoutTail.endsWith(PDB_PROMPT);
  }

  /** Writes input and waits for a prompt; returns the output without the markers, and whether it needed Ctrl-C. */
  private async send(
    input: string,
    timeoutMs: number,
  ): Promise<{ text: string; interrupted: boolean; stuck: boolean }> {
    this.output = new CappedText(this.options.maxOutput);
    this.stdoutTail = '';
    this.cap.end();
    this.visible.status = undefined;
    this.visibleErr.status = undefined;
    // A line for pdb belongs to the shell command that started it: its markers end pdb too.
    if (this.mode === 'shell') this.commandNumber++;
    const line =
      this.mode === 'pdb'
        ? `${input}\n`
        : `{ ${input}\n} ; printf '${this.marker}:%s\\n' "$?"; printf '${this.errMarker}${this.commandNumber}\\n' >&2\n`;
    this.markedAt = undefined;
    this.child!.stdin.write(line);
    let interrupted = false;
    let stuck = false;
    const wait = (ms: number) =>
      new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => {
          this.waiter = undefined;
          resolve(false);
        }, ms);
        const check = () => {
          if (this.finished()) {
            clearTimeout(timer);
            this.waiter = undefined;
            resolve(true);
          }
        };
        this.waiter = check;
        check();
      });
    if (!(await wait(timeoutMs))) {
      interrupted = true;
      this.child!.kill('SIGINT');
      if (!(await wait(INTERRUPT_GRACE_MS))) stuck = true;
    }
    this.showOutput(this.visible.flush());
    this.showOutput(this.visibleErr.flush());
    const rest = this.cap.end();
    if (rest) this.emit({ type: 'output', chunk: rest });
    // The newlines before the marker are the command's last; what stderr said after it stays.
    const text = this.output.toString().replace(/\n+$/, '');
    if (this.visible.status !== undefined) this.mode = 'shell';
    else if (this.stdoutTail.endsWith(PDB_PROMPT)) this.mode = 'pdb';
    return { text, interrupted, stuck };
  }

  private async exchange(input: string, who: Writer, timeoutMs: number): Promise<string> {
    await this.ensureStarted();
    const lines =
      this.mode === 'pdb' ? input.split('\n').filter((l, _i, all) => l.trim() || all.length === 1) : [input];
    const outputs: string[] = [];
    for (const line of lines) {
      const mode = this.mode;
      this.emit({ type: 'input', who, input: line, mode });
      const startedAt = Date.now();
      const { text, interrupted, stuck } = await this.send(line, timeoutMs);
      const byDeveloper = this.interruptedByDeveloper;
      this.interruptedByDeveloper = false;
      let output = text;
      if (this.exited) {
        output += `\n[tenet: the shell exited; the next command starts a new session]`;
        this.kill();
      } else if (stuck) {
        output += `\n[tenet: no answer ${Math.round(timeoutMs / 1000)}s after the command and none after Ctrl-C; the session was killed and the next command starts a new one]`;
        this.kill();
        this.emit({ type: 'restart', reason: 'stuck after Ctrl-C' });
      } else if (interrupted) {
        output += `\n[tenet: the command ran past ${Math.round(timeoutMs / 1000)}s and was interrupted with Ctrl-C]`;
      } else if (byDeveloper) {
        output += `\n${DEVELOPER_INTERRUPT}`;
      }
      const entry: TranscriptEntry = {
        who,
        input: line,
        output,
        mode,
        then: this.child ? this.mode : 'shell',
        startedAt,
        durationMs: Date.now() - startedAt,
        interrupted,
      };
      this.transcript.push(entry);
      this.emit({ type: 'entry', entry });
      outputs.push(output);
      if (!this.child) break;
    }
    return outputs.join('\n');
  }
}
