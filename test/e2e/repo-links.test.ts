import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finished, runCli, startCli, waitFor } from '../helpers/cli';
import { snapshot } from '../helpers/snapshot';

/**
 * Symbolic links in the user's repository must never make tenet change the user's files: the
 * workspace is a real copy. A "world" folder holds the checkout, a folder outside it that the
 * checkout links into, and a link to the checkout itself; a checksum of every file in it must be
 * the same after each run as before, whether the run finished or was killed (SIGKILL) in THM,
 * right after hiding tests, in the agent's turn or in the evaluation. Workspaces and sessions
 * live elsewhere.
 */
const world = mkdtempSync(join(tmpdir(), 'tenet-world-'));
const scratch = mkdtempSync(join(tmpdir(), 'tenet-links-scratch-'));
const outside = join(world, 'outside');
const repo = join(world, 'real', 'proj');
const viaLink = join(world, 'proj-link');
afterAll(() => {
  rmSync(world, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
});

const write = (path: string, lines: string[]) => {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, `${lines.join('\n')}\n`);
};

beforeAll(() => {
  write(join(outside, 'core.py'), [
    'def total(prices):',
    '    """Sum of the prices."""',
    '    result = 0',
    '    for price in prices:',
    '        result += price',
    '    return result',
  ]);
  write(join(outside, 'stats.py'), [
    'def mean(values):',
    '    """Arithmetic mean."""',
    '    return sum(values) / len(values)',
  ]);
  write(join(outside, 'test_core.py'), [
    'from pkg.core import total',
    '',
    'def test_total_empty():',
    '    assert total([]) == 0',
    '',
    'def test_total_two():',
    '    assert total([1, 2]) == 3',
    '',
    'def test_total_data():',
    '    import pathlib',
    "    values = (pathlib.Path(__file__).parent.parent / 'data.txt').read_text().split()",
    '    assert total([int(v) for v in values]) == 6',
  ]);
  write(join(outside, 'data.txt'), ['1 2 3']);
  write(join(repo, 'pkg', '__init__.py'), []);
  write(join(repo, 'pkg', '_inner_impl.py'), ['def scale(x):', '    """Twice x."""', '    return 2 * x']);
  write(join(repo, 'tests', 'test_stats.py'), [
    'from pkg.stats import mean',
    '',
    'def test_mean():',
    '    assert mean([1, 3]) == 2',
  ]);
  write(join(repo, 'tests', 'test_inner.py'), [
    'from pkg.inner import scale',
    '',
    'def test_scale():',
    '    assert scale(3) == 6',
    '',
    'def test_scale_zero():',
    '    assert scale(0) == 0',
  ]);
  // Absolute links out of the repository (the target's module, a test file), relative ones out (a
  // data file a test reads, another module), and an absolute link that stays inside the
  // repository by its real path.
  symlinkSync(join(outside, 'core.py'), join(repo, 'pkg', 'core.py'));
  symlinkSync(join(outside, 'test_core.py'), join(repo, 'tests', 'test_core.py'));
  symlinkSync('../../outside/data.txt', join(repo, 'data.txt'));
  symlinkSync('../../../outside/stats.py', join(repo, 'pkg', 'stats.py'));
  symlinkSync(join(repo, 'pkg', '_inner_impl.py'), join(repo, 'pkg', 'inner.py'));
  symlinkSync(repo, viaLink);
  writeFileSync(
    join(scratch, 'total.json'),
    JSON.stringify({
      turns: [
        {
          calls: [
            { name: 'submit_implementation', arguments: { code: 'def total(prices):\n    return sum(prices)\n' } },
          ],
        },
      ],
    }),
  );
  writeFileSync(
    join(scratch, 'scale.json'),
    JSON.stringify({
      turns: [{ calls: [{ name: 'submit_implementation', arguments: { code: 'def scale(x):\n    return x + x\n' } }] }],
    }),
  );
});

const env = () => ({ TMPDIR: join(scratch, 'tmp') });
const runArgs = (target: string, script: string, repoDir = repo) => [
  'run',
  '--repo',
  repoDir,
  '--target',
  target,
  '--blank',
  '-T',
  '1',
  '--provider',
  'scripted',
  '--script',
  join(scratch, script),
  '--json',
];

describe("links in the user's repository never lead tenet's writes out of the workspace", () => {
  beforeAll(() => mkdirSync(join(scratch, 'tmp'), { recursive: true }));

  for (const [kind, target, failing] of [
    [
      'an absolute',
      'pkg/core.py::total',
      [
        'tests/test_core.py::test_total_data',
        'tests/test_core.py::test_total_empty',
        'tests/test_core.py::test_total_two',
      ],
    ],
    ['a relative', 'pkg/stats.py::mean', ['tests/test_stats.py::test_mean']],
  ] as const) {
    it(`thm --blank on a module that is ${kind} link out leaves the file it points to as it was`, async () => {
      const before = snapshot(world);
      const result = await runCli(['thm', '--repo', repo, '--target', target, '--blank', '--json'], { env: env() });
      expect(result.code, result.stderr).toBe(0);
      expect(
        JSON.parse(result.stdout)
          .failing.map((f: { nodeid: string }) => f.nodeid)
          .sort(),
      ).toEqual(failing);
      expect(snapshot(world)).toEqual(before);
    });
  }

  it('a whole run whose target module and hidden tests are links out, and whose tests read a file through a relative link out: nothing outside the workspace changes', async () => {
    const before = snapshot(world);
    const result = await runCli(runArgs('pkg/core.py::total', 'total.json'), { env: env() });
    expect(result.code, result.stderr).toBe(0);
    const events = result.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    // The links out were copied as the files they point to: the test reading data.txt passes.
    expect(events.find((e) => e.type === 'tests.hidden')).toMatchObject({ files: ['tests/test_core.py'] });
    expect(events.at(-1)).toMatchObject({ type: 'result', pass: true, hiddenTests: { passed: 2, total: 2 } });
    expect(snapshot(world)).toEqual(before);
  });

  it('--repo spelled through a link: the implementation is not written into the checkout through an absolute link inside it', async () => {
    const before = snapshot(world);
    const result = await runCli(runArgs('pkg/inner.py::scale', 'scale.json', viaLink), { env: env() });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout.trim().split('\n').at(-1)!)).toMatchObject({ type: 'result', pass: true });
    expect(snapshot(world)).toEqual(before);
  });

  const phases: [string, string][] = [
    ['THM', '"type":"thm.test"'],
    ['hiding tests', '"type":"tests.hidden"'],
    ['the agent', '"type":"tool.result"'],
    ['the evaluation', '"phase":"evaluate"'],
  ];
  for (const [phase, marker] of phases) {
    it(`SIGKILL in ${phase}: nothing outside the workspace changed`, async () => {
      const before = snapshot(world);
      const child = startCli(runArgs('pkg/core.py::total', 'total.json'), { env: env() });
      await waitFor(() => child.output.stdout.includes(marker) || child.exitCode !== null, 60_000, `${phase} to start`);
      expect(child.exitCode, child.output.stderr).toBe(null);
      child.kill('SIGKILL');
      await finished(child);
      expect(snapshot(world)).toEqual(before);
    });
  }

  it('a link to a folder that holds the repository is refused with a clear error, not copied', async () => {
    const loop = join(world, 'loop');
    mkdirSync(join(loop, 'pkg'), { recursive: true });
    writeFileSync(join(loop, 'pkg', 'm.py'), 'def f():\n    pass\n');
    symlinkSync('..', join(loop, 'up'));
    const result = await runCli(['thm', '--repo', loop, '--target', 'pkg/m.py::f'], { env: env() });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('up is a link to');
    expect(result.stderr).toContain('a folder that holds the repository itself');
    expect(result.stderr).not.toContain('    at ');
    rmSync(loop, { recursive: true, force: true });
  });

  afterAll(() => {
    // The kills leave scratch copies (that is what `tenet gc` is for); never in the world.
    expect(readdirSync(world).sort()).toEqual(['outside', 'proj-link', 'real']);
  });
});
