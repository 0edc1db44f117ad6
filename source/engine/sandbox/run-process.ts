import type { ProcessRunOptions, CompletedProcess, SandboxProcess } from './sandbox';

/** Keeps the head and the tail of a stream once it outgrows its budget. */
export class CappedText {
  private head = '';
  private tail = '';
  private dropped = 0;
  constructor(private readonly limit: number) {}

  push(chunk: string): void {
    if (this.head.length < this.limit / 2) {
      const room = this.limit / 2 - this.head.length;
      this.head += chunk.slice(0, room);
      chunk = chunk.slice(room);
    }
    if (!chunk) return;
    this.tail += chunk;
    if (this.tail.length > this.limit / 2) {
      const cut = this.tail.length - this.limit / 2;
      this.dropped += cut;
      this.tail = this.tail.slice(cut);
    }
  }

  toString(): string {
    return this.dropped
      ? `${this.head}\n[... ${this.dropped} characters cut by tenet ...]\n${this.tail}`
      : this.head + this.tail;
  }
}

/** Collects a sandbox process's output with a timeout; shared by every sandbox's `run`. */
export async function collect(child: SandboxProcess, options: ProcessRunOptions): Promise<CompletedProcess> {
  const started = Date.now();
  const limit = options.maxOutputChars ?? 4_000_000;
  const stdout = new CappedText(limit);
  const stderr = new CappedText(limit);
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => stdout.push(chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));
  child.stdin.on('error', () => undefined);
  if (options.input !== undefined) child.stdin.end(options.input);
  else child.stdin.end();
  let timedOut = false;
  const timer = options.timeoutMs
    ? setTimeout(() => {
        timedOut = true;
        child.kill('SIGKILL');
      }, options.timeoutMs)
    : undefined;
  const onAbort = () => child.kill('SIGKILL');
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const status = await child.exited;
    return {
      ...status,
      stdout: stdout.toString(),
      stderr: stderr.toString(),
      timedOut,
      durationMs: Date.now() - started,
    };
  } finally {
    if (timer) clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}
