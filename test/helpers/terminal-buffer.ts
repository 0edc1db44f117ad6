import xterm from '@xterm/headless';
import type { PtySession } from './pty';

type Terminal = InstanceType<typeof xterm.Terminal>;

/**
 * What a person sees in a terminal, scrollback included: the pty's output played through xterm.js's
 * own parser and screen buffer (the same terminal emulator VS Code uses). The escape-stripped text
 * of PtySession.screen() keeps every byte ever written, so it cannot tell a line that was erased
 * from one that is still there; this can.
 */
export interface TerminalBuffer {
  /** Every row of the buffer, scrollback first, trailing spaces trimmed (waits for what was written to be parsed). */
  rows(): Promise<string[]>;
  /** The rows as one text. */
  text(): Promise<string>;
  dispose(): void;
}

/** Mirrors `session`'s pty (opened at `cols`×`rows`) into a terminal with `scrollback` rows of history. */
export function mirrorTerminal(
  session: PtySession,
  size: { cols: number; rows: number },
  scrollback = 5000,
): TerminalBuffer {
  const terminal: Terminal = new xterm.Terminal({
    cols: size.cols,
    rows: size.rows,
    scrollback,
    allowProposedApi: true,
  });
  let pending: Promise<void> = Promise.resolve();
  const subscription = session.pty.onData((data) => {
    pending = pending.then(() => new Promise<void>((done) => terminal.write(data, done)));
  });
  const rows = async () => {
    await pending;
    // The alternate screen (an editor's) is not what stays: read the normal buffer.
    const buffer = terminal.buffer.normal;
    const out: string[] = [];
    for (let i = 0; i < buffer.length; i++) out.push(buffer.getLine(i)?.translateToString(true) ?? '');
    while (out.length && out.at(-1) === '') out.pop();
    return out;
  };
  return {
    rows,
    text: async () => (await rows()).join('\n'),
    dispose: () => {
      subscription.dispose();
      terminal.dispose();
    },
  };
}
