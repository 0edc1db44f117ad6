import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Seconds each end-to-end file took in a whole run on a 2-core machine (scripts/test-durations.mjs writes it). */
export const DURATIONS = join(import.meta.dirname, 'durations.json');

/**
 * Starts the longest end-to-end files first, so that none of them starts last and runs on alone
 * at the end of the suite. vitest does so from its own record of the last run on this checkout
 * (under node_modules/.vite); a fresh clone (CI) has none, and vitest would then start the
 * largest files first, which says nothing here: a four-line file can run a minute of attacks
 * from a helper. There the seconds in test/setup/durations.json stand in. A file known to
 * neither goes first: a new file may be long.
 */
export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const recorded = existsSync(DURATIONS)
      ? (JSON.parse(readFileSync(DURATIONS, 'utf8')) as Record<string, number>)
      : {};
    const seconds = (spec: TestSpecification): number => {
      const path = relative(this.ctx.config.root, spec.moduleId);
      const last = this.ctx.cache.getFileTestResults(`${spec.project.name}:${path}`);
      return last ? last.duration / 1000 : (recorded[path] ?? Number.POSITIVE_INFINITY);
    };
    const known = new Map(files.map((spec) => [spec, seconds(spec)]));
    const longer = (a: TestSpecification, b: TestSpecification) => {
      const [sa, sb] = [known.get(a)!, known.get(b)!];
      return sa === sb ? 0 : sb > sa ? 1 : -1;
    };
    return [...files].sort(
      (a, b) =>
        // Projects run in groups, one after the other (vitest.config.ts): the groups' order first.
        a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder ||
        (a.project.name < b.project.name ? -1 : a.project.name > b.project.name ? 1 : 0) ||
        longer(a, b),
    );
  }
}
