import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scanFunctions } from '../../source/engine/bench/make-functions';
import { buildIndex } from '../../source/engine/index/build-index';
import { targetChoices } from '../../source/commands/start';
import { runCli } from '../helpers/cli';
import { FIXTURES } from '../helpers/fixtures';

// Issue 12, item 2: `@overload` stubs (here spelled `@t.overload` and through an alias) are
// signatures, not implementations. Everywhere a target is resolved, the name means the one real
// definition; @LINE still picks a definition, and naming a stub says where the implementation is.
const OVERLOADS = join(FIXTURES, 'overloads');
const TARGET = 'overloads/locate.py::locate_app';

describe('@overload stubs are not targets', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'tenet-overloads-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('tenet thm resolves the name to the implementation, and @LINE still works', async () => {
    const result = await runCli(['thm', '--repo', OVERLOADS, '--target', TARGET, '--blank', '--json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.failing.map((f: { nodeid: string }) => f.nodeid)).toEqual([
      'tests/test_locate.py::test_locate_by_name',
      'tests/test_locate.py::test_locate_without_a_name',
      'tests/test_locate.py::test_registry_by_name',
      'tests/test_locate.py::test_serve',
    ]);
    const atLine = await runCli(['thm', '--repo', OVERLOADS, '--target', `${TARGET}@14`, '--blank', '--json']);
    expect(atLine.code).toBe(0);
    expect(JSON.parse(atLine.stdout).counts.failing).toBe(4);
  });

  it('a method whose overloads use an alias of typing.overload', async () => {
    const result = await runCli([
      'thm',
      '--repo',
      OVERLOADS,
      '--target',
      'overloads/locate.py::Registry.get',
      '--blank',
      '--json',
    ]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).failing.map((f: { nodeid: string }) => f.nodeid)).toEqual([
      'tests/test_locate.py::test_registry_by_name',
      'tests/test_locate.py::test_registry_by_position',
    ]);
  });

  it('naming a stub by @LINE says where the implementation is (exit 2)', async () => {
    const result = await runCli(['thm', '--repo', OVERLOADS, '--target', `${TARGET}@6`, '--blank']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('is an @overload stub');
    expect(result.stderr).toContain(`--target ${TARGET}@14`);
  });

  it('tenet tool and a scripted tenet run work on the name', async () => {
    const tool = await runCli(['tool', 'search_target_usage', '--repo', OVERLOADS, '--target', TARGET]);
    expect(tool.code).toBe(0);
    expect(tool.stdout).toContain('serve');
    const script = join(scratch, 'script.json');
    const implementation = [
      'def locate_app(module, name, raise_if_not_found=True):',
      '    if name is None:',
      '        if raise_if_not_found:',
      '            raise LookupError(module)',
      '        return None',
      '    return f"{module}:{name}"',
    ].join('\n');
    writeFileSync(
      script,
      JSON.stringify({ turns: [{ calls: [{ name: 'submit_implementation', arguments: { code: implementation } }] }] }),
    );
    const run = await runCli([
      'run',
      '--repo',
      OVERLOADS,
      '--target',
      TARGET,
      '--blank',
      '--provider',
      'scripted',
      '--script',
      script,
      '--json',
    ]);
    const result = JSON.parse(run.stdout.trim().split('\n').pop()!);
    expect(result).toMatchObject({ type: 'result', target: TARGET, pass: true, hiddenTests: { passed: 1, total: 1 } });
    // The patch replaces the implementation; the stubs stay as they were.
    expect(result.patch).toContain('@@ -15,7 +15,7 @@');
    expect(result.patch).toContain('+            raise LookupError(module)');
    expect(result.patch).not.toContain('@t.overload');
  });

  it('bench make and the start screen see one function', async () => {
    const scan = await scanFunctions(OVERLOADS, 1);
    const found = scan.eligible.filter((f) => f.qualname === 'locate_app' || f.qualname === 'Registry.get');
    expect(found.map((f) => [f.qualname, f.startLine, f.ambiguous])).toEqual([
      ['locate_app', 14, false],
      ['Registry.get', 40, false],
    ]);
    expect(scan.excluded.overload).toBe(4);
    const { index } = await buildIndex(OVERLOADS, { cacheFile: null });
    const rows = targetChoices(index.files);
    expect(rows.filter((r) => r === TARGET)).toHaveLength(1);
    expect(rows).toEqual([
      'overloads/locate.py::locate_app',
      'overloads/locate.py::serve',
      'overloads/locate.py::Registry.__init__',
      'overloads/locate.py::Registry.get',
    ]);
  });
});
