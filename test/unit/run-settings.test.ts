import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PAPER_BUDGET } from '../../source/engine/agent/tenet-strategy';
import { recordedChoices, resolveSettings } from '../../source/engine/run/run-settings';
import { parseEvents } from '../../source/engine/session/event-log';
import { ROOT } from '../helpers/fixtures';

describe('run settings: flags, then the config files, then the defaults', () => {
  it('takes each setting from the first layer that has it', () => {
    const settings = resolveSettings(
      { budget: { rrwAttempts: 0 }, tddBudget: { setupRounds: 4 }, ablations: { noRrw: true } },
      { pregenRounds: 7, rrwAttempts: 2, testTimeout: 9, strategy: 'tdd', tddIterations: 3 },
    );
    expect(settings).toMatchObject({
      T: 3,
      jobs: 'auto',
      onePass: true,
      testTimeoutSec: 9,
      strategy: 'tdd',
      budget: { pregenRounds: 7, rrwAttempts: 0, rrwRounds: PAPER_BUDGET.rrwRounds },
      tddBudget: { setupRounds: 4, iterations: 3, roundsPerIteration: 15 },
      measureTests: true,
      select: 'thm',
      testStage: 'all',
      ablations: { noThm: false, noApis: false, noRrw: true },
    });
  });

  it('reads back what a session recorded, as a new run would have resolved it', () => {
    const { events } = parseEvents(readFileSync(join(ROOT, 'sessions', 'demo', 'events.jsonl'), 'utf8'), 'demo');
    const start = events.find((e) => e.type === 'session.start');
    if (start?.type !== 'session.start') throw new Error('the demo session has no start');
    const settings = resolveSettings(recordedChoices(start), {});
    expect(settings).toMatchObject({
      strategy: start.strategy,
      budget: start.config.budget,
      ablations: start.config.ablations,
      testTimeoutSec: start.config.testTimeoutSec,
      jobs: start.config.jobs,
      onePass: start.config.onePass,
    });
    expect(Number.isFinite(settings.T) ? settings.T : 'all').toBe(start.config.T);
    // Saved before the caller rule could be chosen: the default, as a new run has it.
    expect(settings.caller).toBe('use');
  });

  it('keeps the caller rule a session recorded (`--caller nearest`), for resume and rerun', () => {
    const { events } = parseEvents(readFileSync(join(ROOT, 'sessions', 'demo', 'events.jsonl'), 'utf8'), 'demo');
    const start = events.find((e) => e.type === 'session.start');
    if (start?.type !== 'session.start') throw new Error('the demo session has no start');
    const nearest = { ...start, config: { ...start.config, caller: 'nearest' as const } };
    expect(resolveSettings(recordedChoices(nearest), {}).caller).toBe('nearest');
  });
});
