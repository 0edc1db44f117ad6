import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

// The TUI in a pseudo-terminal, against the fake model server: shared by test/e2e/tui-pty-*.test.ts.
export const scratch = mkdtempSync(join(tmpdir(), 'tenet-tui-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
/** A colour or style escape (ESC [ … m). */
// eslint-disable-next-line no-control-regex
export const SGR = /\x1b\[[0-9;]*m/;
