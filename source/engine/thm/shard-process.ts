import type { ExitStatus, Sandbox } from '../sandbox/sandbox';
import { PluginLineReader, type PluginEvent } from './plugin-lines';

/** One try at running a shard: its own pytest process, or a lane of a process shared by all shards. */
export interface ShardAttempt {
  listen(handler: (event: PluginEvent) => void): void;
  readonly exited: Promise<ExitStatus>;
  kill(): void;
  /** The shared process was killed for another lane's hung test (this lane's test is not to blame). */
  killedForAnother(): boolean;
  /** A lane: if it did not finish, its shard runs again in a process of its own. */
  readonly shared: boolean;
  /** How many shards the tests were split into: fewer lanes than asked when the scope is small. */
  shardCount(asked: number): number;
  /**
   * A lane that did not finish: the tests it took and did not finish, and (for the lane whose hung
   * test stopped them all) those no lane took. Undefined when lanes took fixed shares.
   */
  leftover(finished: ReadonlySet<string>): string[] | undefined;
  stderr(): string;
  noise(): string;
  /** A judged run: the first line on the channel that the judge did not sign (see PluginLineReader). */
  forged(): string | undefined;
}

/**
 * A pytest process of its own. `judgeKey`: a judged run (see source/python/_tenet_judge/), which reads its
 * channel's key from stdin; only lines signed with it are events.
 */
export function soloAttempt(
  sandbox: Sandbox,
  argv: string[],
  env: Record<string, string>,
  judgeKey?: Buffer,
): ShardAttempt {
  let handler: (event: PluginEvent) => void = () => undefined;
  let stderr = '';
  const reader = new PluginLineReader((event) => handler(event), judgeKey);
  const child = sandbox.spawn(argv, { env });
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => reader.push(chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
  child.stdin.on('error', () => undefined);
  child.stdin.end(judgeKey ? `${judgeKey.toString('hex')}\n` : undefined);
  return {
    listen: (h) => (handler = h),
    exited: child.exited.then((status) => {
      reader.end();
      return status;
    }),
    kill: () => child.kill(),
    killedForAnother: () => false,
    shared: false,
    shardCount: (asked) => asked,
    leftover: () => undefined,
    stderr: () => stderr,
    noise: () => reader.noise,
    forged: () => reader.forged,
  };
}

/**
 * One pytest process that collects the scope once and runs the shards in forked lanes
 * (TENET_LANES, see source/python/_tenet_lanes.py). Events of a lane carry its index and go to
 * that shard; the collecting process's own events (collection, its errors) go to every shard,
 * and its end counts as theirs only when it started no lane.
 */
export class LanesProcess {
  private readonly handlers = new Map<number, (event: PluginEvent) => void>();
  private started: Set<number> | undefined;
  private count: number | undefined;
  /** Every test the lanes share, and the units each lane took (lanes that take units as they go). */
  private tests: string[] | undefined;
  private readonly taken = new Map<number, string[]>();
  private killer: number | undefined;
  /** TENET_MODE=worlds: the original world's events (its lanes are no shards: see runPytestPass). */
  onOriginal: (event: PluginEvent) => void = () => undefined;
  private stderr = '';
  private readonly reader = new PluginLineReader((event) => this.route(event));
  private readonly child;
  readonly exited: Promise<ExitStatus>;

  constructor(sandbox: Sandbox, argv: string[], env: Record<string, string>) {
    this.child = sandbox.spawn(argv, { env });
    this.child.stdout.setEncoding('utf8').on('data', (chunk: string) => this.reader.push(chunk));
    this.child.stderr
      .setEncoding('utf8')
      .on('data', (chunk: string) => (this.stderr = (this.stderr + chunk).slice(-4000)));
    this.child.stdin.end();
    this.exited = this.child.exited.then((status) => {
      this.reader.end();
      return status;
    });
  }

  /** How many shards the plugin split the tests into, one per lane (`asked` until it said). */
  shardCount(asked: number): number {
    return this.count ?? asked;
  }

  lane(index: number): ShardAttempt {
    return {
      listen: (handler) => this.handlers.set(index, handler),
      exited: this.exited,
      kill: () => {
        this.killer ??= index;
        this.child.kill();
      },
      killedForAnother: () => this.killer !== undefined && this.killer !== index,
      shared: true,
      shardCount: (asked) => this.shardCount(asked),
      leftover: (finished) => this.leftover(index, finished),
      stderr: () => this.stderr,
      noise: () => this.reader.noise,
      // Lanes are never judged (see PassOptions.judge).
      forged: () => undefined,
    };
  }

  private leftover(index: number, finished: ReadonlySet<string>): string[] | undefined {
    if (!this.tests) return undefined;
    const left = (this.taken.get(index) ?? []).filter((nodeid) => !finished.has(nodeid));
    if (this.killer === index || (this.killer === undefined && index === 0)) {
      const takenByAny = new Set([...this.taken.values()].flat());
      left.push(...this.tests.filter((nodeid) => !takenByAny.has(nodeid)));
    }
    return left;
  }

  /** Kills the process for no lane's test: every lane that did not finish runs again. */
  killForAll(): void {
    this.killer ??= -1;
    this.child.kill();
  }

  private route(event: PluginEvent): void {
    if (event.world === 'original') {
      this.onOriginal(event);
      return;
    }
    if (event.e === 'lanes') {
      this.started = new Set(event.started);
      this.count = event.count;
      this.tests = event.tests;
      return;
    }
    if (event.e === 'unit' && event.lane !== undefined) {
      const taken = this.taken.get(event.lane) ?? [];
      taken.push(...event.tests);
      this.taken.set(event.lane, taken);
    }
    if (event.lane !== undefined) {
      this.handlers.get(event.lane)?.(event);
      return;
    }
    if (event.e === 'done' && this.started) return;
    for (const handler of this.handlers.values()) handler(event);
  }
}
