import type { PluginTestEvent } from './protocol';

/**
 * A module-, class-, package- or session-scoped fixture runs in the first test that uses it;
 * pytest hands every later test its cached value or error, without a call. So when such a
 * fixture calls the target, only that first test reaches it (source/python/_tenet_cached.py).
 * Over shards, every pytest process sets the fixture up for its own first user: the run's answer
 * is the one a single process gives, where the first user in the scope's order reached the target
 * and every other user fails through the fixture.
 */
export function firstUsersReach(tests: Map<string, PluginTestEvent>): void {
  const first = new Map<string, number>();
  for (const test of tests.values()) {
    if (test.cache) first.set(test.cache.key, Math.min(first.get(test.cache.key) ?? Infinity, test.cache.order));
  }
  for (const [nodeid, test] of tests) {
    if (!test.cache || !test.chain || test.cache.order === first.get(test.cache.key)) continue;
    tests.set(nodeid, { ...test, chain: null, entryKind: null, failsThrough: test.cache.fixture });
  }
}
