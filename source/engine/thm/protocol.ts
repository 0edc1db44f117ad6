/** Lines the pytest plugin (source/python/_tenet_thm.py) writes, one JSON object after MARK. */
export const MARK = '\x1etenet:';

export interface ProbeFrame {
  /** `relpath::qualname` */
  name: string;
  line: number;
  comprehension: boolean;
}

export type EntryKind = 'test' | 'fixture' | 'module' | 'other';

export type PluginEvent =
  | { e: 'configured'; rootdir: string; args: string[] }
  | { e: 'collected'; total: number; mine: number; remaining: number }
  | { e: 'start'; nodeid: string }
  | {
      e: 'test';
      nodeid: string;
      outcome: 'passed' | 'failed' | 'error' | 'skipped' | 'xfailed' | 'xpassed';
      phase: 'setup' | 'call' | 'teardown' | null;
      message: string;
      longrepr: string;
      file: string | null;
      line: number | null;
      durationMs: number;
      chain: ProbeFrame[] | null;
      entryKind: EntryKind | null;
      timedOut: boolean;
      /** Set by tenet, not the plugin: the test process died or hung during this test. */
      crashed?: boolean;
    }
  | { e: 'collecterror'; nodeid: string; message: string; longrepr: string; chain: ProbeFrame[] | null; entryKind: EntryKind | null }
  | { e: 'done'; exitstatus: number; targetLoaded: boolean; outside: { module: string; file: string }[] };

export type PluginTestEvent = Extract<PluginEvent, { e: 'test' }>;
export type PluginCollectError = Extract<PluginEvent, { e: 'collecterror' }>;

/**
 * Splits a byte stream into plugin events. pytest's own progress output shares the stream, so a
 * marked line may follow dots on the same line: look for the mark anywhere in the line.
 */
export class PluginLineReader {
  private pending = '';
  /** The last unmarked output, for diagnostics when pytest fails before the plugin speaks. */
  noise = '';

  constructor(private readonly onEvent: (event: PluginEvent) => void) {}

  push(chunk: string): void {
    this.pending += chunk;
    let newline: number;
    while ((newline = this.pending.indexOf('\n')) !== -1) {
      this.line(this.pending.slice(0, newline));
      this.pending = this.pending.slice(newline + 1);
    }
  }

  end(): void {
    if (this.pending) this.line(this.pending);
    this.pending = '';
  }

  private line(line: string): void {
    const at = line.indexOf(MARK);
    if (at === -1) {
      this.noise = (this.noise + line + '\n').slice(-4000);
      return;
    }
    if (at > 0) this.noise = (this.noise + line.slice(0, at)).slice(-4000);
    try {
      this.onEvent(JSON.parse(line.slice(at + MARK.length)) as PluginEvent);
    } catch {
      this.noise = (this.noise + line + '\n').slice(-4000);
    }
  }
}
