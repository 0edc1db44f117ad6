import type { PassResult } from './pass-types';

const unique = <T>(items: T[], key: (item: T) => string): T[] => {
  const seen = new Set<string>();
  return items.filter((item) => !seen.has(key(item)) && !!seen.add(key(item)));
};

/**
 * The passes of one scope's shards, each run as a process of its own (a judged run's lanes), as
 * one pass: what one process over the whole scope would have given. Tests come back in the scope's
 * run order (each event's `order`, the same in every shard), so that a file's tests, cut into
 * chunks across lanes, read as one process ran them; an error of collection, a problem or a note
 * that every lane met is said once. A trip or a forged report in any lane is the whole run's, and
 * so is an abort or a timeout.
 */
export function mergePasses(passes: readonly PassResult[]): PassResult {
  if (passes.length === 1) return passes[0]!;
  const tests = passes.flatMap((pass) => [...pass.tests.values()]);
  // Stable: tests without a place (an older plugin, or never collected) keep their lane's order, last.
  const place = (order: number | undefined) => (order === undefined || order < 0 ? Infinity : order);
  tests.sort((a, b) => place(a.order) - place(b.order));
  const startHit = passes.find((pass) => pass.startHit)?.startHit;
  const forged = passes.find((pass) => pass.forged)?.forged;
  return {
    shards: passes.length,
    collected: Math.max(...passes.map((pass) => pass.collected)),
    tests: new Map(tests.map((test) => [test.nodeid, test])),
    original: new Map(passes.flatMap((pass) => [...pass.original])),
    collectErrors: unique(
      passes.flatMap((pass) => pass.collectErrors),
      (error) => error.nodeid,
    ),
    collectHits: unique(
      passes.flatMap((pass) => pass.collectHits),
      (hit) => hit.nodeid,
    ),
    ...(startHit ? { startHit } : {}),
    targetLoaded: passes.some((pass) => pass.targetLoaded),
    outside: unique(
      passes.flatMap((pass) => pass.outside),
      (copy) => copy.file,
    ),
    leftOut: {
      files: new Set(passes.flatMap((pass) => [...pass.leftOut.files])),
      tests: new Set(passes.flatMap((pass) => [...pass.leftOut.tests])),
    },
    problems: unique(
      passes.flatMap((pass) => pass.problems),
      (problem) => problem,
    ),
    notes: unique(
      passes.flatMap((pass) => pass.notes),
      (note) => note,
    ),
    timedOut: passes.some((pass) => pass.timedOut),
    aborted: passes.some((pass) => pass.aborted),
    tripped: passes.flatMap((pass) => pass.tripped),
    ...(forged ? { forged } : {}),
  };
}
