import { describe, expect, it } from 'vitest';
import { firstUsersReach } from '../../source/engine/thm/cached-fixtures';
import type { PluginTestEvent } from '../../source/engine/thm/plugin-lines';

const event = (
  nodeid: string,
  order: number,
  chain: string[] | null,
  failsThrough: string | null = null,
): PluginTestEvent => ({
  e: 'test',
  nodeid,
  outcome: 'error',
  phase: 'setup',
  message: 'NotImplementedError',
  longrepr: '',
  file: null,
  line: null,
  durationMs: 1,
  chain: chain ? chain.map((name) => ({ name, line: 1, comprehension: false })) : null,
  entryKind: chain ? 'fixture' : null,
  failsThrough,
  timedOut: false,
  cache: { key: 'tests::db@module tests/test_a.py[]', fixture: 'tests/conftest.py::db', order },
});

describe('a cached fixture over shards: only its first user in the run order reached the target', () => {
  it('a later user that set the fixture up in its own shard fails through it instead', () => {
    const chain = ['tests/conftest.py::db', 'm.py::f'];
    const tests = new Map([
      ['a::t2', event('a::t2', 2, chain)], // first in its shard
      ['a::t1', event('a::t1', 1, chain)], // first in the run
      ['a::t3', event('a::t3', 3, null, 'tests/conftest.py::db')],
    ]);
    firstUsersReach(tests);
    expect(tests.get('a::t1')!.chain).toHaveLength(2);
    expect(tests.get('a::t2')).toMatchObject({ chain: null, entryKind: null, failsThrough: 'tests/conftest.py::db' });
    expect(tests.get('a::t3')).toMatchObject({ chain: null, failsThrough: 'tests/conftest.py::db' });
  });

  it('the first user in the run order reached it, even when its shard ran it after another user', () => {
    const chain = ['tests/conftest.py::db', 'm.py::f'];
    const tests = new Map([
      ['a::t1', event('a::t1', 1, null, 'tests/conftest.py::db')],
      ['a::t2', event('a::t2', 2, chain)],
    ]);
    firstUsersReach(tests);
    expect(tests.get('a::t1')).toMatchObject({ failsThrough: null, entryKind: 'fixture' });
    expect(tests.get('a::t1')!.chain).toHaveLength(2);
    expect(tests.get('a::t2')).toMatchObject({ chain: null, failsThrough: 'tests/conftest.py::db' });
  });
});
