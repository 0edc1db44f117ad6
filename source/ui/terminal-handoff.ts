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
 * 2. resize events are held back (Ink would paint over the editor) and the editor runs with the
 *    terminal as its stdin, stdout and stderr;
 * 3. Ink's last frame is erased (an editor that does not use the alternate screen leaves its text
 *    where the frame was), the handlers come back (Ink enters raw mode and reads again), the
 *    cursor is hidden again, and a resize is replayed so every screen measures the terminal anew.
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
  /** Erases Ink's last frame (the instance's clear()), so the next render draws it whole. */
  clearFrame(): void;
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
  try {
    return await program();
  } finally {
    for (const listener of resizeListeners) stdout.on('resize', listener);
    terminal.clearFrame();
    set(false);
    if (stdout.isTTY) stdout.write('\u001B[?25l');
    restoreBracketedPaste();
    stdout.emit('resize');
  }
}
