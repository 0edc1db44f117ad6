import type { PluginTestEvent } from './plugin-lines';

/**
 * A module-, class-, package- or session-scoped fixture runs in the first test that uses it;
 * pytest hands every later test its cached value or error, without a call. So when such a
 * fixture calls the target, only that first test reaches it (source/python/_tenet_cached.py).
 * Over shards, every pytest process sets the fixture up for its own first user: the run's answer
 * is the one a single process gives, where the first user in the scope's order reached the target
 * and every other user fails through the fixture. The same holds for a collector whose own setup
 * called the target (a package's setup_module).
 */
export function firstUsersReach(
  tests: Map<string, PluginTestEvent>,
  importedAway: readonly PluginTestEvent[] = [],
): void {
  const groups = new Map<string, PluginTestEvent[]>();
  for (const test of tests.values()) {
    if (test.cache) groups.set(test.cache.key, [...(groups.get(test.cache.key) ?? []), test]);
  }
  for (const group of groups.values()) {
    const first = group.reduce((a, b) => (b.cache!.order < a.cache!.order ? b : a));
    // The chain of the fixture's setup, as whichever user set it up recorded it: in fork and
    // worlds mode that may be a test of a module that then failed to import blank (its tests are
    // gone; a blank run sets the fixture up for the first user it has).
    const key = first.cache!.key;
    const setUp =
      (first.chain ? first : group.find((test) => test.chain)) ??
      importedAway.find((test) => test.cache?.key === key && test.chain);
    for (const test of group) {
      if (test === first) {
        if (setUp && setUp !== first)
          tests.set(test.nodeid, { ...test, chain: setUp.chain, entryKind: setUp.entryKind, failsThrough: null });
      } else if (test.chain) {
        tests.set(test.nodeid, { ...test, chain: null, entryKind: null, failsThrough: test.cache!.fixture });
      }
    }
  }
}
