import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { foldEvents } from '../../source/engine/session/fold';
import { loadSession } from '../../source/engine/session/load';
import { finished, runCli, startCli, waitFor } from '../helpers/cli';
import { startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server';
import { SHOP_TOTAL_RIGHT, scratchWithServers } from '../helpers/steering-scratch';
import { copyFixture } from '../helpers/fixtures';

// Issue 14.3: the developer is the spec. `--add-tests FILE...` (the headless twin of the THM
// review's `n` and `e`): of the tests in the files, those that fail on the stub — in benchmark
// mode, and pass on the original — join THM's failing tests and the selection, the agent sees
// them, the evaluation counts them; the others are named with why and left out. The session
// records the files' content.

const { scratch, track } = scratchWithServers('tenet-developer-tests-');
const RIGHT = SHOP_TOTAL_RIGHT;
let server: FakeModelServer | undefined;
const MINE = [
  'from shop.cart import Cart',
  '',
  '',
  'def test_half_off():',
  '    assert Cart([("a", 10.0, 2)], percent=50).total() == 10.0',
  '',
  '',
  'def test_empty_cart_has_no_lines():',
  '    assert Cart().lines == []',
  '',
].join('\n');

describe('--add-tests', () => {
  it('a test that fails on the stub joins the selection, the agent sees it and the evaluation counts it; one that passes and a file that does not import are kept out, with why; rerun agrees', async () => {
    const dir = join(scratch, 'sessions');
    // Named as pytest does not collect by default: it goes in as tests/test_mine.py, or the runs
    // that name only the scope would never run it.
    writeFileSync(join(scratch, 'mine.py'), MINE);
    writeFileSync(join(scratch, 'test_broken.py'), 'def test_oops(:\n    pass\n');
    server = track(
      await startFakeModelServer([{ calls: [{ name: 'submit_implementation', arguments: { code: RIGHT } }] }]),
    );
    const repo = copyFixture('shop');
    try {
      const env = {
        TENET_SESSIONS_DIR: dir,
        OPENAI_API_KEY: 'k',
        OPENAI_BASE_URL: `${server.url}/v1`,
        XDG_CONFIG_HOME: '/nonexistent',
      };
      const args = [
        'run',
        '--repo',
        repo.dir,
        '--target',
        'shop/cart.py::Cart.total',
        '--blank',
        '-T',
        '2',
        '--provider',
        'openai',
        '--model',
        'gpt-4o-mini',
        '--json',
      ];
      const result = await runCli(
        [
          ...args,
          '--add-tests',
          join(scratch, 'mine.py'),
          join(scratch, 'test_broken.py'),
          '--tests',
          'tests/test_cart.py',
        ],
        { env },
      );
      expect(result.code, result.stderr).toBe(0);
      const events = result.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      const added = events.find((e) => e.type === 'tests.added');
      expect(added.accepted.map((t: { nodeid: string }) => t.nodeid)).toEqual(['tests/test_mine.py::test_half_off']);
      // THM ran it: it reaches the target through the test itself.
      expect(added.accepted[0].chain.at(-1)).toBe('shop/cart.py::Cart.total');
      expect(added.rejected).toEqual(
        [
          {
            nodeid: 'tests/test_broken.py',
            reason: expect.stringMatching(
              /^the file does not compile \(line 1, column \d+.*\); it was put back as it was$/,
            ),
          },
          {
            nodeid: 'tests/test_mine.py::test_empty_cart_has_no_lines',
            reason: expect.stringContaining('it passes on the blanked body'),
          }, // benchmark mode: the body was blanked, there is no stub
        ].sort((a, b) => (a.nodeid < b.nodeid ? -1 : 1)),
      );
      expect(added.files.map((f: { path: string }) => f.path)).toEqual(['tests/test_mine.py', 'tests/test_broken.py']);
      expect(added.files[0].content).toBe(MINE);

      const approval = events.find((e) => e.type === 'thm.approval');
      expect(approval.by).toBe('human');
      expect(approval.chosen).toContain('tests/test_mine.py::test_half_off');
      // THM's proposal over the pool with the developer's test in it, and the developer's test.
      expect(approval.chosen).toEqual(expect.arrayContaining(approval.proposed));
      // The agent sees it: its source is in the task's prompt.
      expect(JSON.stringify(server.requests[0]!.body.messages)).toContain('def test_half_off():');
      const last = events.at(-1);
      expect(last).toMatchObject({
        type: 'result',
        pass: true,
        selectedTests: { passed: approval.chosen.length, total: approval.chosen.length },
      });
      expect(last.tests['tests/test_mine.py::test_half_off']).toBe('passed');
      // The checkout is untouched: the developer's file lives in the workspace and the session.
      expect(() => readFileSync(join(repo.dir, 'tests', 'test_mine.py'))).toThrow();

      const id = events[0].sessionId as string;
      const state = foldEvents(loadSession(dir, id).events);
      expect(state.thm!.failing.map((f) => f.nodeid)).toContain('tests/test_mine.py::test_half_off');
      expect(state.developerFiles.map((f) => f.path)).toEqual(['tests/test_mine.py']);
      const shown = await runCli(['show', id], { env });
      expect(shown.stdout).toContain(
        "**The developer's tests (tests/test_mine.py, tests/test_broken.py): 1 joins THM's failing tests; 2 kept out.**",
      );
      expect(shown.stdout).toContain('- joined: `tests/test_mine.py::test_half_off`');
      expect(shown.stdout).toContain('def test_half_off():');
      const rerun = await runCli(['rerun', id], { env });
      expect(rerun.stdout).toContain('No divergence');
      expect(rerun.code).toBe(0);
    } finally {
      repo.cleanup();
    }
  }, 180_000);

  it('a session killed after the developer’s tests joined resumes with them: they are written again and the evaluation counts them', async () => {
    const dir = join(scratch, 'killed');
    writeFileSync(join(scratch, 'test_mine.py'), MINE);
    server = track(
      await startFakeModelServer([
        { calls: [{ name: 'submit_implementation', arguments: { code: RIGHT } }], hold: new Promise(() => undefined) },
      ]),
    );
    const repo = copyFixture('shop');
    try {
      const env = {
        TENET_SESSIONS_DIR: dir,
        OPENAI_API_KEY: 'k',
        OPENAI_BASE_URL: `${server.url}/v1`,
        XDG_CONFIG_HOME: '/nonexistent',
      };
      const child = startCli(
        [
          'run',
          '--repo',
          repo.dir,
          '--target',
          'shop/cart.py::Cart.total',
          '--blank',
          '-T',
          '2',
          '--provider',
          'openai',
          '--model',
          'gpt-4o-mini',
          '--json',
          '--add-tests',
          join(scratch, 'test_mine.py'),
          '--tests',
          'tests/test_cart.py',
        ],
        { env },
      );
      const ended = finished(child);
      // The first model call hangs (the server never answers it): the developer's tests are in by then.
      await waitFor(() => server!.requests.length === 1, 60_000, 'the first model call');
      child.kill('SIGKILL');
      await ended;
      const id = JSON.parse(child.output.stdout.split('\n')[0]!).sessionId as string;
      await server.close();
      server = track(
        await startFakeModelServer([{ calls: [{ name: 'submit_implementation', arguments: { code: RIGHT } }] }]),
      );
      const resumed = await runCli(['resume', id, '--base-url', `${server.url}/v1`, '--json'], { env });
      expect(resumed.code, resumed.stderr).toBe(0);
      const last = JSON.parse(resumed.stdout.trim().split('\n').at(-1)!);
      expect(last).toMatchObject({ type: 'result', pass: true });
      expect(last.tests['tests/test_mine.py::test_half_off']).toBe('passed');
    } finally {
      repo.cleanup();
    }
  }, 180_000);

  it('a file that is not there is bad input: exit 2', async () => {
    const result = await runCli(
      [
        'run',
        '--repo',
        join(scratch),
        '--target',
        'x.py::f',
        '--provider',
        'openai',
        '--add-tests',
        join(scratch, 'nope.py'),
      ],
      { env: { OPENAI_API_KEY: 'k' } },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`--add-tests ${join(scratch, 'nope.py')} is not a file.`);
  });
});
