import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli';
import { recordedDemo } from '../helpers/demo-session';

describe('tenet demo (what npm start runs)', () => {
  it('runs a whole session on the example with the labelled scripted model, and passes', () => {
    // The demo the global setup recorded (test/setup/demo-session.ts), run as this test ran it.
    const result = recordedDemo();
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('model: scripted demo model: replays examples/invoicing.demo.json, not an LLM');
    expect(result.stdout).toContain('refinement attempt 1/5 · failure identification');
    expect(result.stdout).toContain("    ✓ ('uk', ['DE', 'FR', 'UK'])");
    expect(result.stdout).toContain('PASS · selected 3/3 · hidden 9/9');
    expect(result.exampleAfter).toBe(result.exampleBefore);
  });

  it("words a TDD session as one, live and in `tenet show`: no THM approval, the TDD phases, the agent's own runs", async () => {
    const sessions = mkdtempSync(join(tmpdir(), 'tenet-show-tdd-'));
    try {
      const env = { OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', XDG_CONFIG_HOME: '/nonexistent' };
      const live = await runCli(['demo', '--strategy', 'tdd', '--headless', '--sessions-dir', sessions], { env });
      expect(live.code).toBe(0);
      expect(live.stdout).toContain("tests the agent sees: none of the repository's (TDD: the agent writes its own)");
      expect(live.stdout).toMatch(/^tests first · .*up to 15 rounds$/m);
      expect(live.stdout).toContain('co-refinement · test run 1/10');
      expect(live.stdout).toContain('  run_tests: 5/6 passed');

      const show = await runCli(['show', 'last', '--sessions-dir', sessions], { env });
      expect(show.code).toBe(0);
      expect(show.stdout).toContain(
        "Tests given to the agent: none of the repository's (TDD: the agent writes its own).",
      );
      expect(show.stdout).not.toContain('approved automatically');
      expect(show.stdout).toMatch(/^## Tests first: .*up to 15 rounds$/m);
      expect(show.stdout).toContain('## Co-refinement: test run 1/10');
      expect(show.stdout).toContain('**run_tests**: 5/6 passed');
      // The evaluation is the one run of every failing test; the agent's own runs are not labelled so.
      expect(show.stdout.match(/\*\*every failing test\*\*/g)).toHaveLength(1);
      expect(show.stdout).toContain("## Measuring the agent's tests");
    } finally {
      rmSync(sessions, { recursive: true, force: true });
    }
  });
});
