import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli';
import { FIXTURES } from '../helpers/fixtures';
import { chains, thmOn, type ThmRun } from '../helpers/thm';

// Issue 12, item 3: a module-, class- or session-scoped fixture (setup_module and setUpClass are
// such fixtures too) that calls the target runs in the first test that uses it; pytest re-raises
// its cached error for the others without a call. Those are `reached: false`, take no part in
// clustering or selection, and name the fixture they fail through.
// Item 4: outcomes are a real blank run's: xfail marks (and wrappers that use them) turn an
// error in setup into xfailed, skip marks skip, in twin mode as in two passes.
const CACHED = join(FIXTURES, 'cached');
const XFAILS = join(FIXTURES, 'xfails');
const CONNECT = 'store/connect.py::connect';
const PARSE = 'xf/parse.py::parse_int';

describe.each([
  ['twins', true],
  ['two passes', false],
])('THM where pytest caches a fixture that called the target, %s', (_name, twins) => {
  let cached: ThmRun;
  let xfails: ThmRun;
  beforeAll(async () => {
    cached = await thmOn(CACHED, CONNECT, { blank: true, onePass: twins, jobs: 1 });
    xfails = await thmOn(XFAILS, PARSE, { blank: true, onePass: twins, jobs: 1 });
  }, 120_000);

  it('only the first user of each cached fixture reaches the target', () => {
    expect(chains(cached.report)).toEqual({
      'tests/test_module_scope.py::test_first': ['tests/conftest.py::db', CONNECT],
      'tests/test_module_scope.py::test_second': [],
      'tests/test_module_scope.py::test_also_calls_the_target': [],
      'tests/test_class_scope.py::TestClassScope::test_one': ['tests/test_class_scope.py::TestClassScope.url', CONNECT],
      'tests/test_class_scope.py::TestClassScope::test_two': [],
      'tests/test_unittest_style.py::StoreTest::test_a': [
        'tests/test_unittest_style.py::StoreTest.setUpClass',
        CONNECT,
      ],
      'tests/test_unittest_style.py::StoreTest::test_b': [],
      'tests/test_xunit.py::test_x1': ['tests/test_xunit.py::setup_module', CONNECT],
      'tests/test_xunit.py::test_x2': [],
    });
  });

  it('names the fixture each later test fails through', () => {
    const through = Object.fromEntries(cached.report.failing.map((f) => [f.nodeid, f.failsThrough]));
    expect(through).toEqual({
      'tests/test_module_scope.py::test_first': null,
      'tests/test_module_scope.py::test_second': 'tests/conftest.py::db',
      // It calls connect itself too, but blank pytest stops it at db's cached error first.
      'tests/test_module_scope.py::test_also_calls_the_target': 'tests/conftest.py::db',
      'tests/test_class_scope.py::TestClassScope::test_one': null,
      'tests/test_class_scope.py::TestClassScope::test_two': 'tests/test_class_scope.py::TestClassScope.url',
      'tests/test_unittest_style.py::StoreTest::test_a': null,
      'tests/test_unittest_style.py::StoreTest::test_b': 'tests/test_unittest_style.py::StoreTest.setUpClass',
      'tests/test_xunit.py::test_x1': null,
      'tests/test_xunit.py::test_x2': 'tests/test_xunit.py::setup_module',
    });
    const second = cached.report.failing.find((f) => f.nodeid === 'tests/test_module_scope.py::test_second')!;
    expect(second).toMatchObject({
      reached: false,
      outcome: 'error',
      phase: 'setup',
      message: 'NotImplementedError',
      caller: null,
      depth: null,
    });
  });

  it('clusters and selects only the tests that reached the target', () => {
    expect(cached.report.clusters.map((c) => [c.caller, c.tests])).toEqual([
      ['tests/conftest.py::db', ['tests/test_module_scope.py::test_first']],
      ['tests/test_class_scope.py::TestClassScope.url', ['tests/test_class_scope.py::TestClassScope::test_one']],
      ['tests/test_unittest_style.py::StoreTest.setUpClass', ['tests/test_unittest_style.py::StoreTest::test_a']],
      ['tests/test_xunit.py::setup_module', ['tests/test_xunit.py::test_x1']],
    ]);
    const all = cached.report.selected.length;
    expect(all).toBe(3);
    expect(cached.report.counts).toMatchObject({ collected: 10, passed: 1, failing: 9, unreached: 5 });
  });

  it('xfail-marked tests that error at setup are xfailed, skip marks skip', () => {
    expect(chains(xfails.report)).toEqual({
      'tests/test_marks.py::test_first': ['tests/conftest.py::warm_up', PARSE],
      'tests/test_marks.py::test_last': [],
      // raises=KeyError does not cover the blank's NotImplementedError: an error, as pytest has it.
      'tests/test_marks.py::test_xfail_for_another_error': [],
      'tests/test_xfail_first.py::test_after': [],
    });
    expect(xfails.report.counts).toMatchObject({
      collected: 10,
      passed: 0,
      skipped: 6,
      failing: 4,
      unreached: 3,
      alreadyFailing: 0,
    });
    expect(xfails.report.failing.every((f) => f.reached || f.failsThrough === 'tests/conftest.py::warm_up')).toBe(true);
  });

  it('decides in the one pass what a blank run would, without running tests again', () => {
    const again = (run: ThmRun) => run.events.filter((e) => e.type === 'thm.test' && e.phase !== 'probe').length;
    // Twin mode: no blank re-run. Two passes: the failing tests once more on the original code.
    expect(again(cached)).toBe(twins ? 0 : 9);
    expect(again(xfails)).toBe(twins ? 0 : 4);
  });
});

describe('failsThrough in the printed report', () => {
  it('text and --json', async () => {
    const text = await runCli(['thm', '--repo', CACHED, '--target', CONNECT, '--blank']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('Failing without reaching the target (5; not clustered)');
    expect(text.stdout).toContain(
      'tests/test_module_scope.py::test_second: fails through tests/conftest.py::db (cached by pytest): NotImplementedError',
    );
    const json = await runCli(['thm', '--repo', CACHED, '--target', CONNECT, '--blank', '--json']);
    const report = JSON.parse(json.stdout);
    expect(report.failing.find((f: { nodeid: string }) => f.nodeid === 'tests/test_xunit.py::test_x2')).toMatchObject({
      reached: false,
      failsThrough: 'tests/test_xunit.py::setup_module',
    });
  });
});
