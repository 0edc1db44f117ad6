import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe } from 'vitest';
import { killedAndResumed, SPREAD_POINTS } from '../helpers/demo-kills';

// The demo killed with SIGKILL at the last four of the points spread from THM to its evaluation
// (the first ones are in sessions-killed-early.test.ts).
const scratch = mkdtempSync(join(tmpdir(), 'tenet-sessions-killed-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('a session killed with SIGKILL at many points stays loadable, and resume finishes it', () => {
  const dir = join(scratch, 'killed');
  const env = { TENET_SESSIONS_DIR: dir, OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', XDG_CONFIG_HOME: '/nonexistent' };

  killedAndResumed(dir, env, SPREAD_POINTS.slice(4));
});
