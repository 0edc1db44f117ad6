import type { EngineEvent, ThmPhase } from '../engine/events';
import { isFailure, THM_PHASES } from '../engine/phrase-book';

/**
 * A one-line progress display on stderr for headless commands in a terminal (the TUI has its own).
 * Redraws at most ten times a second.
 */
export function progressLine(stream: NodeJS.WriteStream = process.stderr): { onEvent(event: EngineEvent): void; clear(): void } {
  let total = 0;
  let done = 0;
  let failing = 0;
  let phase: ThmPhase = 'probe';
  let started = Date.now();
  let last = 0;
  let shown = false;
  const draw = (force = false) => {
    if (!stream.isTTY) return;
    const now = Date.now();
    if (!force && now - last < 100) return;
    last = now;
    const width = 24;
    const filled = total ? Math.min(width, Math.round((done / total) * width)) : 0;
    const bar = '█'.repeat(filled) + '░'.repeat(width - filled);
    const seconds = (now - started) / 1000;
    const rate = seconds > 0 ? done / seconds : 0;
    stream.write(`\r\x1b[2K${bar} ${done}/${total || '?'} tests · ${failing} failing · ${seconds.toFixed(1)} s · ${rate.toFixed(0)}/s · ${THM_PHASES[phase]}`);
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
