import { spawn, type IPty } from '@lydell/node-pty';
import { CLI } from './fixtures';

/** ANSI escapes out: what a person reads on the screen (roughly: cursor moves become nothing). */
export function plain(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text
    .replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')
    .replace(/\x1b\][^\x07]*\x07/g, '')
    .replace(/\r/g, '');
}

export interface PtySession {
  pty: IPty;
  /** Everything written to the terminal so far, escapes removed. */
  screen(): string;
  /** Waits until the output (since `from`) contains the text. */
  waitFor(text: string | RegExp, timeoutMs?: number, from?: number): Promise<number>;
  send(keys: string): void;
  /** Sends one key and waits until the screen shows `expect` (drawn after the key). */
  press(key: string, expect: string | RegExp, timeoutMs?: number): Promise<number>;
  /** Waits until the program has written nothing for `quietMs`: its frame is drawn and its keys are listened to. */
  settled(quietMs?: number): Promise<void>;
  exited: Promise<number>;
}

/** The built CLI in a pseudo-terminal, as a person would run it. */
export function startInPty(args: string[], env: NodeJS.ProcessEnv, size = { cols: 120, rows: 40 }): PtySession {
  const pty = spawn(process.execPath, [CLI, ...args], {
    name: 'xterm-256color',
    cols: size.cols,
    rows: size.rows,
    env: { ...process.env, ...env } as Record<string, string>,
  });
  let output = '';
  let lastData = Date.now();
  pty.onData((data) => {
    output += data;
    lastData = Date.now();
  });
  const exited = new Promise<number>((resolve) => pty.onExit(({ exitCode }) => resolve(exitCode)));
  return {
    pty,
    screen: () => plain(output),
    async waitFor(text, timeoutMs = 30_000, from = 0) {
      const started = Date.now();
      for (;;) {
        const seen = plain(output).slice(from);
        const at = typeof text === 'string' ? seen.indexOf(text) : seen.search(text);
        if (at !== -1) return from + at;
        if (Date.now() - started > timeoutMs)
          throw new Error(
            `timed out waiting for ${String(text)}; the screen ends with:\n${plain(output).slice(-3000)}`,
          );
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    send: (keys) => pty.write(keys),
    async press(key, expect, timeoutMs = 30_000) {
      const from = plain(output).length;
      pty.write(key);
      return this.waitFor(expect, timeoutMs, from);
    },
    async settled(quietMs = 200) {
      while (Date.now() - lastData < quietMs) await new Promise((r) => setTimeout(r, 25));
    },
    exited,
  };
}

export const KEY = {
  up: '\x1b[A',
  down: '\x1b[B',
  right: '\x1b[C',
  left: '\x1b[D',
  pageUp: '\x1b[5~',
  pageDown: '\x1b[6~',
  home: '\x1b[H',
  end: '\x1b[F',
  enter: '\r',
  escape: '\x1b',
  ctrlC: '\x03',
  space: ' ',
};

/**
 * `tenet run` on the shop fixture's `Cart.total`, blank, with the OpenAI-compatible provider (a
 * fake server's), and `extra` flags; its tests are `tests/test_cart.py` (last: `--tests` takes the rest).
 */
export function shopRunArgs(repoDir: string, extra: readonly string[] = []): string[] {
  return [
    'run',
    '--repo',
    repoDir,
    '--target',
    'shop/cart.py::Cart.total',
    '--blank',
    '--provider',
    'openai',
    '--model',
    'gpt-4o-mini',
    ...extra,
    '--tests',
    'tests/test_cart.py',
  ];
}
