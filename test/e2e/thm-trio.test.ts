import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFixture, FIXTURES } from '../helpers/fixtures';
import { withInterpreterPlugins } from '../helpers/pytest-plugins';
import { chains, thmOn } from '../helpers/thm';

// anyio's tests run under its pytest plugin, loaded as the interpreter loads it.
withInterpreterPlugins();
// The interpreter THM runs the tests with (openTask's default).
const PYTHON = process.env.TENET_PYTHON ?? 'python3';
const imports = (module: string) => {
  try {
    execFileSync(PYTHON, ['-c', `import ${module}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
const TRIO = imports('trio');
// Its pytest plugin, not only a folder named anyio (a package removed but for its bytecode imports as one).
const ANYIO = TRIO && imports('anyio.pytest_plugin');
// A skip that says so: .ci/run installs anyio and sets TENET_TEST_ANYIO=require, which turns a
// missing anyio into a failure (without it the anyio tests would vanish from CI unnoticed).
const ANYIO_PROBLEM = ANYIO
  ? undefined
  : `${PYTHON} has no ${TRIO ? 'anyio' : 'trio'} (apt-get install python3-anyio python3-trio, or pip install anyio trio)`;
if (ANYIO_PROBLEM && process.env.TENET_TEST_ANYIO === 'require')
  throw new Error(`the anyio tests are required here (TENET_TEST_ANYIO=require) but ${ANYIO_PROBLEM}`);
if (ANYIO_PROBLEM) console.warn(`[tenet tests] THM's anyio tests skipped: ${ANYIO_PROBLEM}`);

const TRIOTESTS = join(FIXTURES, 'triotests');
const TARGET = 'clock/core.py::advance';

// tests/conftest.py runs the trio-marked tests as pytest-trio does (not installed here): a runner
// in item.obj, the test in a trio task of its own. The chain starts at the test, entry kind `test`,
// and the blank outcome is the blank's NotImplementedError in every mode (a twin forked inside
// trio's run shared its epoll descriptor, and failed with "Bad file descriptor").
describe.skipIf(!TRIO).each([
  ['twins', { onePass: true, jobs: 1 }],
  ['two passes', { onePass: false, jobs: 1 }],
  ['worlds in lanes', { onePass: true, worlds: true, jobs: 2 }],
])('THM on tests that trio runs (a pytest-trio-shaped runner), %s', (_name, mode) => {
  it('starts their chains at the test, entry kind test, and fails them with the blank', async () => {
    const { report } = await thmOn(TRIOTESTS, TARGET, { blank: true, ...mode });
    expect(chains(report)).toEqual({
      'tests/test_clock.py::test_advance': ['tests/test_clock.py::test_advance', TARGET],
      'tests/test_clock.py::test_later': ['tests/test_clock.py::test_later', 'clock/core.py::later', TARGET],
      'tests/test_clock.py::TestClock::test_advance_in_class': [
        'tests/test_clock.py::TestClock.test_advance_in_class',
        TARGET,
      ],
      'tests/test_clock.py::test_plain': ['tests/test_clock.py::test_plain', TARGET],
    });
    for (const failing of report.failing)
      expect(failing).toMatchObject({ entryKind: 'test', message: 'NotImplementedError' });
    expect(report.clusters.map((c) => c.caller).sort()).toEqual([
      'clock/core.py::later',
      'tests/test_clock.py::TestClock.test_advance_in_class',
      'tests/test_clock.py::test_advance',
      'tests/test_clock.py::test_plain',
    ]);
  }, 60_000);
});

// anyio's pytest plugin with the trio backend runs trio as a guest of the test's thread. Only
// where the interpreter has anyio (the machine's python3 has trio, not anyio).
describe.skipIf(!ANYIO)(
  `THM on anyio tests with the trio backend${ANYIO_PROBLEM ? ` [skipped: ${ANYIO_PROBLEM}]` : ''}`,
  () => {
    let repo: ReturnType<typeof copyFixture>;
    beforeAll(() => {
      repo = copyFixture('triotests');
      writeFileSync(
        join(repo.dir, 'tests', 'test_any.py'),
        [
          'import anyio',
          'import pytest',
          'from clock.core import advance',
          '',
          '',
          '@pytest.fixture(params=["trio", "asyncio"])',
          'def anyio_backend(request):',
          '    return request.param',
          '',
          '',
          '@pytest.mark.anyio',
          'async def test_any():',
          '    await anyio.sleep(0)',
          '    assert advance(1, 2) == 3',
          '',
        ].join('\n'),
      );
    });
    afterAll(() => repo.cleanup());

    it('fails both backends with the blank, in twin mode too', async () => {
      const { report } = await thmOn(repo.dir, TARGET, {
        blank: true,
        onePass: true,
        jobs: 1,
        testArgs: ['tests/test_any.py'],
      });
      const byId = new Map(report.failing.map((f) => [f.nodeid, f]));
      for (const backend of ['trio', 'asyncio']) {
        expect(byId.get(`tests/test_any.py::test_any[${backend}]`)).toMatchObject({
          entryKind: 'test',
          message: 'NotImplementedError',
          chain: ['tests/test_any.py::test_any', TARGET],
        });
      }
    }, 60_000);
  },
);
