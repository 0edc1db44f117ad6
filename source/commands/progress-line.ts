import type { EngineEvent, ThmPhase } from '../engine/events';
import { isFailure, THM_PHASES } from '../engine/phrase-book';

/** Not in a terminal (a CI log, a pipe): a line of its own this often, so a long THM shows it is alive. */
const PLAIN_EVERY_MS = 15_000;

/**
 * A one-line progress display on stderr for headless commands in a terminal (the TUI has its own).
 * Redraws at most ten times a second. Elsewhere, a plain line every 15 seconds of a phase.
 */
export function progressLine(stream: NodeJS.WriteStream = process.stderr): {
  onEvent(event: EngineEvent): void;
  clear(): void;
} {
  let total = 0;
  let done = 0;
  let failing = 0;
  let phase: ThmPhase = 'probe';
  let started = Date.now();
  let last = 0;
  let shown = false;
  let plainAt = 0;
  const draw = (force = false) => {
    const now = Date.now();
    const seconds = (now - started) / 1000;
    const counts = `${done}/${total || '?'} tests · ${failing} failing · ${seconds.toFixed(stream.isTTY ? 1 : 0)} s`;
    if (!stream.isTTY) {
      if (now - Math.max(started, plainAt) < PLAIN_EVERY_MS) return;
      plainAt = now;
      stream.write(`THM: ${counts} · ${THM_PHASES[phase]}\n`);
      return;
    }
    if (!force && now - last < 100) return;
    last = now;
    const width = 24;
    const filled = total ? Math.min(width, Math.round((done / total) * width)) : 0;
    const bar = '█'.repeat(filled) + '░'.repeat(width - filled);
    const rate = seconds > 0 ? done / seconds : 0;
    stream.write(`\r\x1b[2K${bar} ${counts} · ${rate.toFixed(0)}/s · ${THM_PHASES[phase]}`);
    shown = true;
  };
  return {
    onEvent(event) {
      if (event.type === 'thm.phase') {
        phase = event.phase;
        done = 0;
        failing = 0;
        total = event.tests ?? 0;
        started = Date.now();
      } else if (event.type === 'thm.collected') {
        if (event.phase === 'probe') total = event.total;
      } else if (event.type === 'thm.test') {
        done++;
        if (isFailure(event.outcome)) failing++;
      } else return;
      draw(event.type === 'thm.phase');
    },
    clear() {
      if (shown && stream.isTTY) stream.write('\r\x1b[2K');
    },
  };
}
