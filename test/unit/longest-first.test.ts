import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TestSpecification, Vitest } from 'vitest/node';
import { DURATIONS, LongestFirst } from '../setup/longest-first';

const root = '/repo';
const spec = (project: string, path: string, groupOrder = 0) =>
  ({
    moduleId: join(root, path),
    project: { name: project, config: { sequence: { groupOrder } } },
  }) as TestSpecification;

/** The sequencer over a checkout whose vitest has a record of `last` (milliseconds by "project:path"). */
const sequencer = (last: Record<string, number> = {}) =>
  new LongestFirst({
    config: { root },
    cache: { getFileTestResults: (key: string) => (key in last ? { duration: last[key], failed: false } : undefined) },
  } as unknown as Vitest);

const names = (specs: TestSpecification[]) => specs.map((s) => s.moduleId.slice(root.length + 1));

describe('the suite starts its longest end-to-end files first', () => {
  const recorded = JSON.parse(readFileSync(DURATIONS, 'utf8')) as Record<string, number>;
  const [longest, shortest] = Object.entries(recorded)
    .sort(([, a], [, b]) => b - a)
    .filter((_, i, all) => i === 0 || i === all.length - 1)
    .map(([path]) => path);

  it('on a fresh clone (no record of vitest): by the recorded seconds, a file not recorded first', async () => {
    const files = [spec('e2e', shortest!, 1), spec('e2e', 'test/e2e/new.test.ts', 1), spec('e2e', longest!, 1)];
    expect(names(await sequencer().sort(files))).toEqual(['test/e2e/new.test.ts', longest, shortest]);
  });

  it("vitest's own record of the last run comes before the recorded seconds; groups keep their order", async () => {
    const files = [spec('e2e', longest!, 1), spec('e2e', shortest!, 1), spec('unit', 'test/unit/a.test.ts')];
    const last = { [`e2e:${shortest}`]: 1e9, [`e2e:${longest}`]: 1 };
    expect(names(await sequencer(last).sort(files))).toEqual(['test/unit/a.test.ts', shortest, longest]);
  });
});
