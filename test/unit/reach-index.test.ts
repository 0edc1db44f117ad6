import { mkdtempSync, rmSync, writeFileSync, mkdirSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fileState, outline } from '../../source/engine/thm/reach-files';
import { configKey, freshness, interpreterKey } from '../../source/engine/thm/reach-fresh';
import { REACH_FORMAT, scopeOptions, type ReachIndex } from '../../source/engine/thm/reach-index';
import { inRunOrder } from '../../source/engine/thm/reach-record';
import { reachPlan } from '../../source/engine/thm/reach-scope';
import { passesAsRecorded } from '../../source/engine/thm/reach-use';

// Issue 44: the reach index says which tests can fail with a target blank; what it keeps of each
// file says which of its records still hold once the repository changed.

const PYTHON = { path: '/usr/bin/python3-for-the-test', dirs: [] };
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const CORE = `import os


def leaf(x):
    return x + 1


def middle(x):
    return leaf(x) * 2


def numbers(n):
    for i in range(n):
        yield leaf(i)
`;

function repo(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'tenet-reach-unit-'));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) write(dir, path, text);
  return dir;
}

function write(dir: string, path: string, text: string): void {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), text);
  // A later second than before: fileState trusts an unchanged time and size.
  const later = new Date(Date.now() + 5_000 + Math.random() * 1000);
  utimesSync(join(dir, path), later, later);
}

/** An index of the repository as it is now, recorded as _tenet_index would report it. */
async function indexOf(dir: string, overrides: Partial<ReachIndex> = {}): Promise<ReachIndex> {
  const files: ReachIndex['files'] = {};
  for (const rel of [
    'pkg/core.py',
    'tests/test_core.py',
    'tests/test_other.py',
    'tests/sub/conftest.py',
    'tests/sub/test_sub.py',
  ]) {
    const state = fileState(dir, rel);
    if (state) files[rel] = rel === 'pkg/core.py' ? { ...state, ...(await outline(CORE)) } : state;
  }
  return {
    format: REACH_FORMAT,
    repo: dir,
    testArgs: [],
    positional: [],
    python: { path: PYTHON.path, version: '3.11', key: interpreterKey(PYTHON) },
    pytestConfig: { rootdir: '.', inifile: null },
    configKey: configKey(dir, { rootdir: '.', inifile: null }),
    pythonFiles: ['test_*.py'],
    functions: [
      { file: 'pkg/core.py', qualname: 'leaf', line: 4, end: 5, generator: false },
      { file: 'pkg/core.py', qualname: 'middle', line: 8, end: 9, generator: false },
      { file: 'pkg/core.py', qualname: 'numbers', line: 12, end: 14, generator: true },
    ],
    tests: {
      'tests/test_core.py::test_leaf': { fns: [0], outcome: 'passed', order: 0 },
      'tests/test_core.py::test_middle': { fns: [0, 1], outcome: 'passed', order: 1 },
      'tests/test_core.py::test_none': { fns: [], outcome: 'passed', order: 2 },
      'tests/test_other.py::test_none': { fns: [], outcome: 'skipped', order: 3 },
      'tests/test_other.py::test_broken': { fns: [], outcome: 'failed', order: 4 },
      'tests/sub/test_sub.py::test_spawns': { fns: [], outcome: 'passed', spawns: true, order: 5 },
      'tests/sub/test_sub.py::test_quiet': { fns: [], outcome: 'passed', order: 6 },
    },
    modules: {},
    atImport: [],
    outside: [],
    probed: ['pkg/core.py'],
    unwatched: [],
    files,
    builtAt: 0,
    lastRun: { ms: 0, tests: 7, refresh: false },
    ...overrides,
  };
}

const FILES = {
  'pkg/__init__.py': '',
  'pkg/core.py': CORE,
  'tests/test_core.py': 'from pkg.core import leaf, middle\n',
  'tests/test_other.py': 'def test_none():\n    pass\n',
  'tests/sub/conftest.py': '',
  'tests/sub/test_sub.py': 'def test_quiet():\n    pass\n',
};

describe('the plan for a target', () => {
  it("runs the tests that call the target, and those the index cannot vouch for; leaves out the others' files", async () => {
    const dir = repo(FILES);
    const index = await indexOf(dir);
    const plan = reachPlan(index, await freshness(index, PYTHON), {
      file: 'pkg/core.py',
      qualname: 'middle',
      name: 'middle',
    });
    // test_middle calls it; test_broken failed when recorded, test_spawns started a process.
    expect(plan).toEqual({
      used: true,
      tests: 3,
      of: 7,
      stale: 0,
      reaching: 1,
      leaveOut: {
        files: [],
        tests: [
          'tests/sub/test_sub.py::test_quiet',
          'tests/test_core.py::test_leaf',
          'tests/test_core.py::test_none',
          'tests/test_other.py::test_none',
        ],
      },
    });
  });

  it('leaves a file out whole when none of its tests run', async () => {
    const dir = repo(FILES);
    const index = await indexOf(dir, {
      tests: {
        'tests/test_core.py::test_leaf': { fns: [0], outcome: 'passed', order: 0 },
        'tests/test_other.py::test_none': { fns: [], outcome: 'passed', order: 1 },
      },
    });
    const plan = reachPlan(index, await freshness(index, PYTHON), {
      file: 'pkg/core.py',
      qualname: 'leaf',
      name: 'leaf',
    });
    expect(plan).toMatchObject({ used: true, tests: 1, leaveOut: { files: ['tests/test_other.py'], tests: [] } });
  });

  it('is not used for a target called as modules are imported, or in a file that ran without the probe', async () => {
    const dir = repo(FILES);
    const atImport = await indexOf(dir, { atImport: [0] });
    expect(
      reachPlan(atImport, await freshness(atImport, PYTHON), { file: 'pkg/core.py', qualname: 'leaf', name: 'leaf' }),
    ).toMatchObject({
      used: false,
      why: expect.stringContaining('imported'),
    });
    const unwatched = await indexOf(dir, { unwatched: ['pkg/core.py'] });
    expect(
      reachPlan(unwatched, await freshness(unwatched, PYTHON), { file: 'pkg/core.py', qualname: 'leaf', name: 'leaf' }),
    ).toMatchObject({
      used: false,
      why: expect.stringContaining('without the index'),
    });
  });

  it('runs a test module whole when its import called the target', async () => {
    const dir = repo(FILES);
    const index = await indexOf(dir, { modules: { 'tests/test_other.py': [1] } });
    const plan = reachPlan(index, await freshness(index, PYTHON), {
      file: 'pkg/core.py',
      qualname: 'middle',
      name: 'middle',
    });
    expect(plan.used && plan.leaveOut.tests).not.toContain('tests/test_other.py::test_none');
  });

  it('adds, for a generator, the tests of every file and function that names it (its blank raises at the call)', async () => {
    const dir = repo({
      ...FILES,
      'tests/test_other.py': 'from pkg.core import numbers\n\ndef test_none():\n    numbers(3)\n',
    });
    const index = await indexOf(dir);
    const plan = reachPlan(index, await freshness(index, PYTHON), {
      file: 'pkg/core.py',
      qualname: 'numbers',
      name: 'numbers',
    });
    // test_other.py names it (its test calls it without iterating): it runs; test_core.py's tests do not.
    expect(plan).toMatchObject({
      used: true,
      leaveOut: { files: ['tests/test_core.py'], tests: ['tests/sub/test_sub.py::test_quiet'] },
    });
  });
});

describe('what still holds after a change', () => {
  it('a changed body makes stale only the tests that called that function', async () => {
    const dir = repo(FILES);
    const index = await indexOf(dir);
    write(dir, 'pkg/core.py', CORE.replace('return leaf(x) * 2', 'return leaf(x) * 3'));
    const fresh = await freshness(index, PYTHON);
    expect(fresh.whole).toBeUndefined();
    expect([...fresh.stale]).toEqual(['tests/test_core.py::test_middle']);
    const plan = reachPlan(index, fresh, { file: 'pkg/core.py', qualname: 'leaf', name: 'leaf' });
    // test_middle runs for it: stale, though it calls leaf too.
    expect(plan).toMatchObject({ used: true, stale: 1 });
    // How it ends on the original code is no longer the index's to say; test_leaf's still is. A
    // recorded failure, or a test the index does not know, runs again on the original code.
    const passes = passesAsRecorded(index, fresh);
    expect(passes('tests/test_core.py::test_middle')).toBe(false);
    expect(passes('tests/test_core.py::test_leaf')).toBe(true);
    expect(passes('tests/test_other.py::test_none')).toBe(true); // skipped: it does not fail
    expect(passes('tests/test_other.py::test_broken')).toBe(false);
    expect(passes('tests/test_core.py::test_new')).toBe(false);
  });

  it('a change outside the bodies (an import, a def line, a constant) makes the whole index stale', async () => {
    const dir = repo(FILES);
    const index = await indexOf(dir);
    write(dir, 'pkg/core.py', CORE.replace('import os', 'import os\nLIMIT = 3'));
    expect((await freshness(index, PYTHON)).whole).toContain('outside');
  });

  it("a test file's change makes its own tests stale; a conftest.py below the root, the tests under it", async () => {
    const dir = repo(FILES);
    const index = await indexOf(dir);
    write(dir, 'tests/test_other.py', 'def test_none():\n    assert True\n');
    write(dir, 'tests/sub/conftest.py', 'import pytest\n');
    expect([...(await freshness(index, PYTHON)).stale].sort()).toEqual([
      'tests/sub/test_sub.py::test_quiet',
      'tests/sub/test_sub.py::test_spawns',
      'tests/test_other.py::test_broken',
      'tests/test_other.py::test_none',
    ]);
  });

  it("pytest's configuration, the root conftest.py and the interpreter make the whole index stale", async () => {
    for (const [path, text] of [
      ['pytest.ini', '[pytest]\naddopts = -q\n'],
      ['conftest.py', 'import pytest\n'],
    ]) {
      const dir = repo(FILES);
      const index = await indexOf(dir);
      write(dir, path!, text!);
      expect((await freshness(index, PYTHON)).whole).toContain('configuration');
    }
    const dir = repo(FILES);
    const index = await indexOf(dir);
    expect((await freshness(index, { path: '/another/python', dirs: [] })).whole).toContain('interpreter');
  });

  it('an untouched file is not read again (its time and size are the same)', async () => {
    const dir = repo(FILES);
    const index = await indexOf(dir);
    expect(await freshness(index, PYTHON)).toEqual({ stale: new Set(), changed: [] });
  });
});

describe('a scope split into options and paths', () => {
  it('keeps options with their values, and drops what names a path', () => {
    const isPath = (arg: string) => arg.startsWith('tests');
    expect(scopeOptions(['tests/a.py', '-k', 'not slow', '--ignore', 'tests/b.py', '-q', 'tests::x'], isPath)).toEqual([
      '-k',
      'not slow',
      '--ignore',
      'tests/b.py',
      '-q',
    ]);
  });
});

describe("a refresh's tests in pytest's order", () => {
  it('keeps a recorded test in its place and puts a new one after its file, not after the whole run', () => {
    const old = {
      tests: {
        'tests/test_a.py::one': { fns: [], outcome: 'passed', order: 0 },
        'tests/test_a.py::two': { fns: [], outcome: 'passed', order: 1 },
        'tests/test_b.py::one': { fns: [], outcome: 'passed', order: 2 },
      },
    } as unknown as ReachIndex;
    // The refresh ran test_a's two (stale) and a new test of test_a's, and a new file's.
    const fresh = {
      tests: {
        'tests/test_a.py::two': { fns: [1], outcome: 'passed', order: 0 },
        'tests/test_a.py::three': { fns: [], outcome: 'passed', order: 1 },
        'tests/test_c.py::one': { fns: [], outcome: 'passed', order: 2 },
      },
    } as unknown as ReachIndex;
    const merged = [
      ['tests/test_a.py::one', old.tests['tests/test_a.py::one']!],
      ['tests/test_b.py::one', old.tests['tests/test_b.py::one']!],
      ...Object.entries(fresh.tests),
    ] as [string, ReachIndex['tests'][string]][];
    expect(inRunOrder(old, fresh, merged).map(([nodeid]) => nodeid)).toEqual([
      'tests/test_a.py::one',
      'tests/test_a.py::two',
      'tests/test_a.py::three',
      'tests/test_b.py::one',
      'tests/test_c.py::one',
    ]);
  });
});
