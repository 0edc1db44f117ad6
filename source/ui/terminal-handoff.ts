import { useSyncExternalStore } from 'react';
import { restoreBracketedPaste, suspendBracketedPaste } from './bracketed-paste';

/**
 * Handing the terminal to another program (the developer's editor) and taking it back, with Ink
 * 6 (which has no suspendTerminal). Ink keeps stdin in raw mode, with its own 'readable' listener,
 * for as long as one useInput hook is active, and repaints on every resize. So:
 *
 * 1. every key handler stands down (useKeys reads `handedOff`): the last one's cleanup makes Ink
 *    itself leave raw mode and detach its listener; then stdin is paused, so Node stops reading
 *    the terminal and every key reaches the editor;
 * 2. what Ink writes meanwhile is held back (it would draw over the editor), and so are resize
 *    events; the editor runs on the terminal's alternate screen (tenet switches to it first), so
 *    whatever it draws — a full-screen editor, or one that prints lines — goes away with it;
 * 3. back on the normal screen, everything is where it was: the transcript that Ink printed for
 *    good, its live frame, and the cursor under it. Ink's held output is written then, the key
 *    handlers come back (Ink enters raw mode and reads again), and a resize is replayed so every
 *    screen measures the terminal anew.
 *
 * Erasing Ink's frame instead (its instance's clear()) left Ink counting the frame's rows as still
 * there: the next frame erased as many rows again above it, the transcript's (issue 46.1).
 */

let handedOff = false;
const listeners = new Set<() => void>();

function set(value: boolean): void {
  handedOff = value;
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** True while another program has the terminal: key handlers must not listen. */
export function useHandedOff(): boolean {
  return useSyncExternalStore(subscribe, () => handedOff);
}

export interface Terminal {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
}

/** The alternate screen on (the cursor saved) and cleared, the cursor shown; then off (the normal screen and the cursor back). */
export const ALTERNATE_SCREEN = { on: '\u001B[?1049h\u001B[2J\u001B[H\u001B[?25h', off: '\u001B[?1049l' } as const;
const HIDE_CURSOR = '\u001B[?25l';

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Holds what is written to `stream` (through its write method) until `release`, which writes it in
 * order; `direct` writes past the hold. A child's inherited file descriptor is not touched.
 */
function holdWrites(stream: NodeJS.WriteStream): { direct(text: string): void; release(): void } {
  const original = stream.write;
  const held: Parameters<typeof stream.write>[] = [];
  stream.write = ((...args: Parameters<typeof stream.write>) => {
    held.push(args);
    const callback = args.find((arg) => typeof arg === 'function') as (() => void) | undefined;
    callback?.();
    return true;
  }) as typeof stream.write;
  return {
    direct: (text) => void original.call(stream, text),
    release() {
      stream.write = original;
      for (const args of held) (original as (...a: unknown[]) => boolean).apply(stream, args);
    },
  };
}

/** Runs `program` with the terminal handed over to it; the TUI is back (and listening) when this resolves. */
export async function handTerminal<T>(terminal: Terminal, program: () => Promise<T>): Promise<T> {
  const { stdin, stdout } = terminal;
  set(true);
  // React runs the handlers' cleanups after the next commit; Ink leaves raw mode with the last one.
  for (let waited = 0; stdin.isTTY && stdin.isRaw && waited < 2000; waited += 10) await delay(10);
  stdin.pause();
  const resizeListeners = stdout.listeners('resize') as ((...args: unknown[]) => void)[];
  stdout.removeAllListeners('resize');
  suspendBracketedPaste();
  const hold = holdWrites(stdout);
  if (stdout.isTTY) hold.direct(ALTERNATE_SCREEN.on);
  try {
    return await program();
  } finally {
    if (stdout.isTTY) hold.direct(ALTERNATE_SCREEN.off + HIDE_CURSOR);
    hold.release();
    for (const listener of resizeListeners) stdout.on('resize', listener);
    set(false);
    restoreBracketedPaste();
    stdout.emit('resize');
  }
}
