import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DRAWN_POINTS, EVALUATION, killedAndResumed, SPREAD_POINTS } from '../helpers/demo-kills';

// The demo killed with SIGKILL at the first four of the points spread from THM to its evaluation
// (the later ones are in sessions-killed-late.test.ts; the seeded draws and a torn write in
// sessions-killed-drawn.test.ts).
const scratch = mkdtempSync(join(tmpdir(), 'tenet-sessions-killed-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('a session killed with SIGKILL at many points stays loadable, and resume finishes it', () => {
  const dir = join(scratch, 'killed');
  const env = { TENET_SESSIONS_DIR: dir, OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', XDG_CONFIG_HOME: '/nonexistent' };

  it('kills at points the demo reaches, up to its evaluation', () => {
    expect(EVALUATION).toBeGreaterThan(50);
    expect([...SPREAD_POINTS, ...DRAWN_POINTS].every(([point]) => point >= 3 && point <= EVALUATION)).toBe(true);
  });

  killedAndResumed(dir, env, SPREAD_POINTS.slice(0, 4));
});
