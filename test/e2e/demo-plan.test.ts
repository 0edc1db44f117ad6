import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { EngineEvent, RunResult } from '../../source/engine/events';
import { runCli } from '../helpers/cli';
import { ROOT } from '../helpers/fixtures';
import { eventsOf } from '../helpers/plan-geo';

// `tenet demo --plan`: the shipping example (quote needing base_rate and weight_surcharge) played
// by its scripted model, offline, as `tenet demo` plays the invoicing one.

const sessions = mkdtempSync(join(tmpdir(), 'tenet-demo-plan-'));
afterAll(() => rmSync(sessions, { recursive: true, force: true }));
const env = { OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', XDG_CONFIG_HOME: '/nonexistent' };
const [QUOTE, BASE, SURCHARGE] = ['quote', 'base_rate', 'weight_surcharge'].map((n) => `shipping/quote.py::${n}`);
const MODULE = join(ROOT, 'examples', 'shipping', 'shipping', 'quote.py');

describe('tenet demo --plan', () => {
  it('implements the three stubs of examples/shipping: quote waits for the two it calls, all three pass', async () => {
    const before = readFileSync(MODULE, 'utf8');
    const run = await runCli(['demo', '--plan', '--json', '--sessions-dir', sessions], { env });
    expect(run.code, run.stderr).toBe(0);
    const events = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as EngineEvent);
    expect(eventsOf(events, 'plan')[0]!.order).toEqual([QUOTE, BASE, SURCHARGE]);
    expect(eventsOf(events, 'plan.target').map((e) => e.target)).toEqual([QUOTE, BASE, SURCHARGE, QUOTE]);
    expect(eventsOf(events, 'plan.target.end')[0]).toMatchObject({ target: QUOTE, after: SURCHARGE });
    const result = events.at(-1) as RunResult;
    expect(result).toMatchObject({ type: 'result', pass: true });
    expect(result.targets!.map((t) => [t.target, t.pass])).toEqual([
      [QUOTE, true],
      [BASE, true],
      [SURCHARGE, true],
    ]);
    expect(result.patch).toContain('+    return base_rate(zone) + weight_surcharge(weight_kg)');
    // The demo runs on a copy: the example keeps its stubs.
    expect(readFileSync(MODULE, 'utf8')).toBe(before);
  }, 300_000);

  it('refuses --strategy tdd, with what to do instead', async () => {
    const run = await runCli(['demo', '--plan', '--strategy', 'tdd', '--headless'], { env });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('tenet demo --plan plays the TENET pipeline');
    expect(run.stderr).toContain('leave out --strategy tdd');
  });
});
