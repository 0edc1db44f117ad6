import { createHmac, timingSafeEqual } from 'node:crypto';
import type { EntryKind } from '../protocol/thm-report';

/** Lines the pytest plugin (source/python/_tenet_thm) writes, one JSON object after MARK. */
export const MARK = '\x1etenet:';

export interface ProbeFrame {
  /** `relpath::qualname` */
  name: string;
  line: number;
  comprehension: boolean;
  /** Code that is none of the repository's own: the standard library, an installed package, code compiled at run time. */
  outside?: true;
  /** A decorator's plumbing right above the target: it holds the target itself (see _wrappers_above in _tenet_probe). */
  wrapper?: true;
}

/** A test's outcome in one world (the blank twin's, in twin mode). */
export interface OutcomeInfo {
  outcome: 'passed' | 'failed' | 'error' | 'skipped' | 'xfailed' | 'xpassed';
  phase: 'setup' | 'call' | 'teardown' | null;
  message: string;
  longrepr: string;
  /**
   * Where the failure was raised: the innermost frame of the repository's code that pytest does
   * not hide (`pkg/geo.py::perimeter`, line 14). Absent where no failure report is read.
   */
  stoppedAt?: { name: string; line: number } | null;
}

/** Every event from a lane (TENET_LANES) carries its index; those of the collecting process none. */
export type PluginEvent = LaneTag &
  /** `xdist`: pytest-xdist's `-n` (the project's options), which the plugin turned off, as it was given. */
  (
    | { e: 'configured'; rootdir: string; args: string[]; fork: boolean; xdist?: string }
    /** TENET_LANES: the collected tests now run in these forked lanes (the others run as shards of their own). */
    | { e: 'lanes'; started: number[]; count: number; tests?: string[] }
    /** TENET_LANES: the tests a lane took next (a lane that dies has those it did not finish run again). */
    | { e: 'unit'; tests: string[] }
    /** TENET_LANES: a lane's process ended (from the collecting process, which waits for each). */
    | { e: 'laneexit'; lane: number; exitCode: number | null; signal: number | null }
    | { e: 'collected'; total: number; mine: number; remaining: number }
    /** TENET_LEAVE_OUT: the files of its list pytest came to and left uncollected, and the tests it deselected. */
    | { e: 'leftout'; files: string[]; tests: string[] }
    /** `order`: the test's place in the whole scope's run order, the same in every shard (-1: not collected here). */
    | { e: 'start'; nodeid: string; order?: number }
    | { e: 'hit'; nodeid: string; chain: ProbeFrame[]; entryKind: EntryKind }
    /** Twin mode: the parent finished the test and now waits for its blank twin. */
    | { e: 'twin'; nodeid: string }
    /** The target was called outside every test and collector before the tests ran (a conftest.py pytest imports as it starts, a conftest's hook): its first such call. */
    | { e: 'starthit'; chain: ProbeFrame[] }
    /** Twin mode: a module called the target while being imported; tenet re-runs it blank. */
    | { e: 'collecthit'; nodeid: string; chain: ProbeFrame[]; entryKind: EntryKind }
    /** pytest imports a test module (its top level runs), and is done with it; `items`: tests collected before it (newer plugins). */
    | { e: 'collecting'; nodeid: string; items?: number }
    | { e: 'collectingdone'; nodeid: string }
    | (OutcomeInfo & {
        e: 'test';
        nodeid: string;
        /** The test's place in the whole scope's run order, the same in every shard (-1: not collected here). */
        order?: number;
        file: string | null;
        line: number | null;
        durationMs: number;
        chain: ProbeFrame[] | null;
        entryKind: EntryKind | null;
        /** Not reached: a wider fixture that called the target in an earlier test (`file::function`), cached by pytest. */
        failsThrough?: string | null;
        /** A process the test started called the target (the probe there notes it; its chain is not seen). */
        subprocess?: boolean;
        /**
         * Set when whether the test reached the target depends on a wider fixture's cache (its first
         * call was in that fixture's setup, or it fails through it): which cached instance (`key`),
         * the fixture (`file::function`) and the test's place in the scope's run order.
         */
        cache?: { key: string; fixture: string; order: number } | null;
        timedOut: boolean;
        /** Twin mode: the outcome with the target blank (the twin's), when the test reached the target. */
        blank?: (OutcomeInfo & { timedOut?: boolean }) | null;
        /** Twin mode: the blank outcome could not be observed here; tenet runs the test blank. */
        needsBlank?: boolean;
        /** Set by tenet, not the plugin: the test process died or hung during this test. */
        crashed?: boolean;
      })
    | {
        e: 'collecterror';
        nodeid: string;
        message: string;
        longrepr: string;
        chain: ProbeFrame[] | null;
        entryKind: EntryKind | null;
      }
    | { e: 'done'; exitstatus: number; targetLoaded: boolean; outside: { module: string; file: string }[] }
    /** The judge's tripwire (see source/python/_tenet_judge/): the submitted code reached into the test harness. */
    | { e: 'tripped'; event: string; detail: string; file: string; line: number }
  );

interface LaneTag {
  lane?: number;
  /** TENET_MODE=worlds: the event is from the original world (the second round of lanes). */
  world?: 'original';
}

export type PluginTestEvent = Extract<PluginEvent, { e: 'test' }>;
export type PluginCollectError = Extract<PluginEvent, { e: 'collecterror' }>;

/**
 * Splits a byte stream into plugin events. pytest's own progress output shares the stream, so a
 * marked line may follow dots on the same line: look for the mark anywhere in the line.
 */
/** Longer lines without a newline are a test's output, not the plugin's (see dropNoise). */
const NOISE_CAP = 8_000_000;

export class PluginLineReader {
  private pending = '';
  /** The last unmarked output, for diagnostics when pytest fails before the plugin speaks. */
  noise = '';
  /** A judged run (see source/python/_tenet_judge/): the first line on the channel that the judge did not sign, said in words. */
  forged: string | undefined;
  private seq = 0;

  /** `key`: the judge's, when the run is judged: then only lines it signed are events. */
  constructor(
    private readonly onEvent: (event: PluginEvent) => void,
    private readonly key?: Buffer,
  ) {}

  push(chunk: string): void {
    // Only the new chunk is searched for line ends: a test that prints 100 MB without a newline
    // must cost one pass over it, not one pass per chunk.
    let newline = chunk.indexOf('\n');
    if (newline === -1) {
      this.pending += chunk;
      if (this.pending.length > NOISE_CAP) this.dropNoise();
      return;
    }
    let start = 0;
    while (newline !== -1) {
      this.line(this.pending + chunk.slice(start, newline));
      this.pending = '';
      start = newline + 1;
      newline = chunk.indexOf('\n', start);
    }
    this.pending = chunk.slice(start);
  }

  /**
   * A line this long is a test's own output (the plugin's events are capped well below it): keep
   * what follows a mark, if one started, else only enough to find a mark split across chunks.
   */
  private dropNoise(): void {
    const at = this.pending.indexOf(MARK);
    const kept = at === -1 ? this.pending.slice(-MARK.length) : this.pending.slice(at);
    this.noise = `[... ${this.pending.length - kept.length} characters of test output without a newline dropped ...]\n`;
    this.pending = kept.length > NOISE_CAP ? '' : kept;
  }

  end(): void {
    if (this.pending) this.line(this.pending);
    this.pending = '';
  }

  private line(line: string): void {
    const at = line.indexOf(MARK);
    if (at === -1) {
      this.noise = `${this.noise}${line}\n`.slice(-4000);
      return;
    }
    if (at > 0) this.noise = (this.noise + line.slice(0, at)).slice(-4000);
    const body = this.key ? this.signed(line.slice(at + MARK.length)) : line.slice(at + MARK.length);
    if (body === undefined) return;
    try {
      this.onEvent(JSON.parse(body) as PluginEvent);
    } catch {
      this.noise = `${this.noise}${line}\n`.slice(-4000);
    }
  }

  /**
   * A judged line's event, if the judge signed it (`J<seq> <hmac> <json>`, the sequence without a
   * gap); else undefined, and the forgery noted: the judged process wrote on the channel itself.
   */
  private signed(rest: string): string | undefined {
    const match = /^J(\d+) ([0-9a-f]{64}) /.exec(rest);
    const body = match ? rest.slice(match[0].length) : '';
    const expected = match ? createHmac('sha256', this.key!).update(`${match[1]} ${body}`).digest('hex') : '';
    if (match && Number(match[1]) === this.seq && timingSafeEqual(Buffer.from(expected), Buffer.from(match[2]!))) {
      this.seq++;
      return body;
    }
    this.forged ??= match
      ? `a line out of sequence or with a wrong signature (${rest.slice(0, 80)})`
      : `an unsigned line (${rest.slice(0, 80)})`;
    return undefined;
  }
}
