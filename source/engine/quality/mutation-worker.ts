import type { Sandbox, SandboxProcess } from '../sandbox/sandbox';

/** One pytest run in the worker (source/python/_tenet_mutation.py): a mutant, or the file as it is. */
export interface WorkerRequest {
  id: string;
  /** The whole module's bytes, or null to run the target file as it is on disk. */
  source: Buffer | null;
  timeoutSec: number;
  args: string[];
  /** Return the tail of pytest's output even when the run passed. */
  output?: boolean;
}

export type WorkerStatus = 'passed' | 'failed' | 'crashed' | 'timeout' | 'invalid' | 'error';

export interface WorkerResult {
  id: string;
  status: WorkerStatus;
  exitCode?: number | null;
  signal?: string;
  durationMs: number;
  /** Whether the test process imported the target file at all. */
  loaded: boolean;
  output?: string;
  message?: string;
}

const MARK = '\x1etenet:';
/** How long past a request's own timeout tenet waits for the worker (which enforces that timeout itself). */
const GRACE_MS = 30_000;

/**
 * A long-lived `python -m _tenet_mutation` process in the sandbox, fed one request at a time. If it
 * dies or stops answering, the request in flight comes back as an error and the next one starts a
 * fresh process.
 */
export class MutationWorker {
  private child: SandboxProcess | undefined;
  private buffer = '';
  private stderr = '';
  private pending: { id: string; finish: (result: WorkerResult) => void } | undefined;

  constructor(
    private readonly sandbox: Sandbox,
    private readonly argv: string[],
    private readonly env: Record<string, string>,
  ) {}

  run(request: WorkerRequest): Promise<WorkerResult> {
    if (this.pending) throw new Error('MutationWorker.run: a request is already in flight');
    const child = this.child ?? this.start();
    return new Promise((resolve) => {
      const started = Date.now();
      const timer = setTimeout(
        () => {
          this.kill();
          finish({
            id: request.id,
            status: 'error',
            durationMs: Date.now() - started,
            loaded: false,
            message: 'the mutation worker stopped answering; tenet killed it',
          });
        },
        request.timeoutSec * 1000 + GRACE_MS,
      );
      const finish = (result: WorkerResult) => {
        clearTimeout(timer);
        this.pending = undefined;
        resolve(result);
      };
      this.pending = { id: request.id, finish };
      const line = {
        id: request.id,
        source: request.source?.toString('base64') ?? null,
        timeout: request.timeoutSec,
        args: request.args,
        output: !!request.output,
      };
      child.stdin.write(`${JSON.stringify(line)}\n`);
    });
  }

  /** Ends the worker after its current request (end of input makes it exit). */
  async close(): Promise<void> {
    const child = this.child;
    if (!child) return;
    child.stdin.end();
    await child.exited;
  }

  kill(): void {
    this.child?.kill('SIGKILL');
  }

  private start(): SandboxProcess {
    const child = this.sandbox.spawn(this.argv, { env: this.env });
    this.child = child;
    this.buffer = '';
    this.stderr = '';
    child.stdin.on('error', () => undefined);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      this.buffer += chunk;
      for (let at = this.buffer.indexOf('\n'); at !== -1; at = this.buffer.indexOf('\n')) {
        const line = this.buffer.slice(0, at);
        this.buffer = this.buffer.slice(at + 1);
        const mark = line.indexOf(MARK);
        if (mark === -1) continue;
        const result = JSON.parse(line.slice(mark + MARK.length)) as WorkerResult;
        if (this.pending?.id === result.id) this.pending.finish(result);
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (this.stderr = (this.stderr + chunk).slice(-4000)));
    void child.exited.then((status) => {
      if (this.child === child) this.child = undefined;
      if (!this.pending) return;
      const how =
        status.error ?? (status.signal ? `was killed by ${status.signal}` : `exited with code ${status.exitCode}`);
      this.pending.finish({
        id: this.pending.id,
        status: 'error',
        durationMs: 0,
        loaded: false,
        message: `the mutation worker ${how}: ${this.stderr.trim().slice(-2000)}`,
      });
    });
    return child;
  }
}
