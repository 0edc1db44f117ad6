import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/fixtures';
import { KEY, startInPty } from '../helpers/pty';

const scratch = mkdtempSync(join(tmpdir(), 'tenet-start-step-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the start screen with --step (issue 37.12)', () => {
  // It was refused: "error: unknown option '--step'" (exit 2).
  it('starts the session it opens in step mode: the agent pauses before its first model call', async () => {
    const tui = startInPty(
      [
        '--repo',
        join(ROOT, 'examples', 'invoicing'),
        '--script',
        join(ROOT, 'examples', 'invoicing.demo.json'),
        '--step',
      ],
      { TENET_SESSIONS_DIR: join(scratch, 'sessions') },
    );
    await tui.waitFor(/\d+ of \d+ functions/, 60_000);
    await tui.press('tax_for', /1 of \d+ functions/);
    await tui.press(KEY.enter, 'Enter approve', 120_000);
    await tui.settled();
    await tui.press(KEY.enter, '⏸ step: before model call 1', 60_000);
    tui.send(KEY.ctrlC + KEY.ctrlC);
    expect(await tui.exited).toBe(130);
  }, 240_000);
});
