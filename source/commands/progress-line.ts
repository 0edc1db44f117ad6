import type { EngineEvent, ThmPhase } from '../engine/events';
import { isFailure, THM_PHASES } from '../engine/phrase-book';
import { plural } from '../engine/util/plural';

/** Not in a terminal (a CI log, a pipe), or as JSON: a line of its own this often, so a long step shows it is alive. */
const PLAIN_EVERY_MS = 15_000;
/** In a terminal the line is redrawn at least this often while nothing happens (pytest collecting sympy: 107 s). */
const TICK_MS = 1000;

/** What is under way: THM collecting or running a pass, or the evaluation of the patch. */
type Stage =
  | { kind: 'thm'; phase: ThmPhase; collecting?: { files: number; tests: number } }
  | { kind: 'evaluate'; tests: number }
  | { kind: 'idle' };

export interface ProgressOptions {
  /** `--json`: the progress as JSON lines on the stream (stderr), every 15 seconds, instead of a line for people. */
  json?: boolean;
  /** The clock (tests give theirs). */
  now?: () => number;
}

/**
 * The progress of a headless command on stderr (the TUI has its own): THM's passes — while pytest
 * collects too, when no test has run yet (`collecting… 41 s`) — and the evaluation, which runs
 * every failing test at the end. In a terminal, one line redrawn in place (at most ten times a
 * second, and every second while nothing happens), cut to the terminal's width so that it never
 * wraps (a wrapped line is redrawn as a new one). Elsewhere, a plain line every 15 seconds; with
 * `--json`, a JSON object per line as often.
 */
/**
 * The line cut to `width` columns, with an ellipsis. Its characters are tenet's own and each one
 * column wide (ASCII, █ ░ · …), so their count is their width: the UI's width helpers would load
 * string-width, whose Unicode segmenter takes about 10 ms to set up in every headless command.
 */
const cutTo = (text: string, width: number) =>
  text.length > width ? `${text.slice(0, Math.max(1, width) - 1)}…` : text;

export function progressLine(
  stream: NodeJS.WriteStream = process.stderr,
  options: ProgressOptions = {},
): { onEvent(event: EngineEvent): void; erase(): void; clear(): void } {
  const now = options.now ?? Date.now;
  const live = !!stream.isTTY && !options.json;
  let stage: Stage = { kind: 'idle' };
  let total = 0;
  let done = 0;
  let failing = 0;
  let started = now();
  let last = 0;
  let shown = false;
  let plainAt = 0;
  let failingTests = 0;
  const words = (seconds: number): string => {
    const time = `${seconds.toFixed(live ? 1 : 0)} s`;
    if (stage.kind === 'evaluate')
      return `evaluating the patch on ${plural(stage.tests, 'failing test')} (the selected and the hidden) · ${time}`;
    if (stage.kind !== 'thm') return '';
    if (!done && stage.collecting)
      return `THM: collecting… ${time} · ${plural(stage.collecting.files, 'file')}, ${plural(stage.collecting.tests, 'test')} so far`;
    if (!done && !total) return `THM: collecting… ${time}`;
    const rate = seconds > 0 ? done / seconds : 0;
    return `THM: ${done}/${total || '?'} tests · ${failing} failing · ${time}${live ? ` · ${rate.toFixed(0)}/s` : ''} · ${THM_PHASES[stage.phase]}`;
  };
  const draw = (force = false) => {
    if (stage.kind === 'idle') return;
    const at = now();
    const seconds = (at - started) / 1000;
    if (!live) {
      if (at - Math.max(started, plainAt) < PLAIN_EVERY_MS) return;
      plainAt = at;
      stream.write(
        options.json
          ? `${JSON.stringify({ progress: stage.kind, ...(stage.kind === 'thm' ? { phase: stage.phase, done, total, failing, ...(stage.collecting && !done ? { collecting: stage.collecting } : {}) } : { tests: stage.tests }), seconds: Math.round(seconds) })}\n`
          : `${words(seconds)}\n`,
      );
      return;
    }
    if (!force && at - last < 100) return;
    last = at;
    const width = 24;
    const filled = total && stage.kind === 'thm' ? Math.min(width, Math.round((done / total) * width)) : 0;
    const bar = stage.kind === 'thm' ? `${'█'.repeat(filled)}${'░'.repeat(width - filled)} ` : '';
    // One column short of the terminal: a line as wide as it would wrap on some terminals.
    stream.write(`\r\x1b[2K${cutTo(`${bar}${words(seconds)}`, Math.max(20, (stream.columns || 80) - 1))}`);
    shown = true;
  };
  const timer = setInterval(() => draw(true), live ? TICK_MS : PLAIN_EVERY_MS / 3);
  timer.unref?.();
  const clear = () => {
    if (shown && live) stream.write('\r\x1b[2K');
    shown = false;
  };
  return {
    onEvent(event) {
      switch (event.type) {
        case 'thm.phase':
          stage = { kind: 'thm', phase: event.phase };
          done = 0;
          failing = 0;
          total = event.tests ?? 0;
          started = now();
          plainAt = 0;
          break;
        case 'thm.collecting':
          if (stage.kind === 'thm') stage = { ...stage, collecting: { files: event.files, tests: event.tests } };
          break;
        case 'thm.collected':
          if (event.phase === 'probe') total = event.total;
          break;
        case 'thm.test':
          done++;
          if (isFailure(event.outcome)) failing++;
          break;
        case 'thm.report':
          failingTests = event.report.failing.length;
          stage = { kind: 'idle' };
          clear();
          return;
        case 'tests.added':
          failingTests += event.accepted.length - event.removed.length;
          return;
        case 'agent.phase':
          if (event.phase !== 'evaluate') return;
          stage = { kind: 'evaluate', tests: failingTests };
          started = now();
          plainAt = 0;
          break;
        case 'tests.run':
        case 'result':
          if (stage.kind !== 'evaluate') return;
          stage = { kind: 'idle' };
          clear();
          return;
        default:
          return;
      }
      draw(event.type === 'thm.phase' || event.type === 'agent.phase');
    },
    /** Takes the line off the screen for a while (a line printed under it); the next tick draws it again. */
    erase: clear,
    /** The end: the line erased, no more ticks. */
    clear() {
      clearInterval(timer);
      clear();
    },
  };
}
