import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTask, type OpenTask } from '../../source/engine/task/open-task';
import { callTool } from '../../source/engine/tools/call-tool';
import type { ToolContext } from '../../source/engine/tools/context';
import { toolDefinitions, TOOLS } from '../../source/engine/tools/registry';
import { openToolbox } from '../../source/engine/tools/toolbox';
import type { SandboxSpec } from '../../source/engine/sandbox/create-sandbox';
import { FIXTURES } from '../helpers/fixtures';
import { SANDBOXES } from '../helpers/sandboxes';

interface Box {
  task: OpenTask;
  ctx: ToolContext;
  dispose(): Promise<void>;
}

async function box(
  repo: string,
  target: string,
  options: { blank?: boolean; selected?: string[]; sandbox?: SandboxSpec } = {},
): Promise<Box> {
  const task = await openTask({
    repo: isAbsolute(repo) ? repo : join(FIXTURES, repo),
    target,
    blank: options.blank ?? false,
    ...(options.sandbox ? { sandbox: options.sandbox } : {}),
  });
  const toolbox = await openToolbox(task, {
    selectedTests: options.selected ?? [],
    indexCacheFile: null,
    debuggerTimeoutMs: 8000,
  });
  return {
    task,
    ctx: toolbox.ctx,
    dispose: async () => {
      toolbox.dispose();
      await task.dispose();
    },
  };
}

const call = async (b: Box, name: string, args: unknown) => callTool(name, args, b.ctx);
const text = async (b: Box, name: string, args: unknown) => (await call(b, name, args)).text;

describe('search tools on the toolbox fixture', () => {
  let b: Box;
  beforeAll(async () => {
    b = await box('toolbox', 'geo/shapes.py::area');
  });
  afterAll(() => b.dispose());

  it('search_class shows the signature: bases and method signatures, no bodies', async () => {
    expect(await text(b, 'search_class', { class_name: 'Square' })).toBe(
      [
        'Found 1 class with name Square in the codebase:',
        '',
        '- Search result 1:',
        '<file>geo/shapes.py</file> <class>Square</class>',
        '<code>',
        '39 class Square(Shape):',
        '40     def __init__(self, side): ...',
        '44     def area(self): ...',
        '47     @property',
        '48     def label(self): ...',
        '</code>',
      ].join('\n'),
    );
  });

  it('search_class_in_file shows a nested class in full, by file suffix', async () => {
    expect(await text(b, 'search_class_in_file', { class_name: 'Meta', file_name: 'shapes.py' })).toBe(
      'Found 1 class with name Meta in file geo/shapes.py:\n\n- Search result 1:\n<file>geo/shapes.py</file> <class>Shape.Meta</class>\n<code>\n8     class Meta:\n9         unit = "m"\n</code>',
    );
  });

  it('search_method collapses past three hits to files with counts', async () => {
    expect(await text(b, 'search_method', { method_name: 'area' })).toBe(
      'Found 5 methods with name area in the codebase:\nThey appeared in the following files:\n- <file>geo/report.py</file> (1 match)\n- <file>geo/shapes.py</file> (4 matches)\nNarrow the search with a *_in_file or *_in_class variant to see code.',
    );
  });

  it('search_method_in_class and search_method_in_file show full code, decorators included', async () => {
    expect(await text(b, 'search_method_in_class', { method_name: 'area', class_name: 'Circle' })).toContain(
      '<file>geo/shapes.py</file> <class>Circle</class> <func>area</func>\n<code>\n31     @functools.cache\n32     def area(self):\n33         return math.pi * self.radius**2\n</code>',
    );
    expect(await text(b, 'search_method_in_file', { method_name: 'half_area', file_name: 'geo/broken.py' })).toContain(
      '4 def half_area(shape):\n5     return area(shape) / 2',
    );
    expect(await text(b, 'search_method_in_class', { method_name: 'area', class_name: 'Nope' })).toBe(
      'Could not find class Nope in the codebase.',
    );
  });

  it('search_code shows each matching line once, with context and its enclosing function', async () => {
    const result = await text(b, 'search_code_in_file', { code_str: 'area(', file_name: 'geo/report.py' });
    expect(result.split('\n')[0]).toBe('Found 4 snippets containing `area(` in file geo/report.py:');
    expect(result).toContain(
      '<file>geo/report.py</file> <func>first_area</func>\n<code>\n14 \n15 \n16 def first_area(shapes):\n17     return shape_area(shapes[0]) if shapes else gs.area(None)',
    );
    expect(await text(b, 'search_code', { code_str: 'super().' })).toContain(
      '<file>geo/shapes.py</file> <class>Circle</class> <func>describe</func>',
    );
  });

  it('search_code_in_file with more than 10 hits lists the methods and classes they are in, with their lines', async () => {
    const result = await text(b, 'search_code_in_file', { code_str: 'self', file_name: 'geo/shapes.py' });
    expect(result).toBe(
      [
        'Found 16 snippets containing `self` in file geo/shapes.py, too many to show. They are in these methods and classes:',
        '- <class>Shape</class> <func>__init__</func>: lines 11, 12',
        '- <class>Shape</class> <func>describe</func>: lines 14, 16',
        '- <class>Shape</class> <func>area</func>: line 18',
        '- <class>Circle</class> <func>__init__</func>: lines 27, 29',
        '- <class>Circle</class> <func>area</func>: lines 32, 33',
        '- <class>Circle</class> <func>describe</func>: line 35',
        '- <class>Square</class> <func>__init__</func>: lines 40, 42',
        '- <class>Square</class> <func>area</func>: lines 44, 45',
        '- <class>Square</class> <func>label</func>: lines 48, 49',
        'Show the code around a line with get_code_around_line, or search for a longer snippet.',
      ].join('\n'),
    );
    // Hits outside any function are grouped by their class, or as module level.
    const letters = await text(b, 'search_code_in_file', { code_str: 'a', file_name: 'geo/shapes.py' });
    expect(letters).toContain(
      '\n- module level: line 2\n- <class>Shape</class>: lines 5, 6\n- <class>Shape.Meta</class>: line 8\n',
    );
  });

  it('get_code_around_line, read_file and view_directory', async () => {
    expect(await text(b, 'get_code_around_line', { file_name: 'geo/shapes.py', line_number: 5, window_size: 1 })).toBe(
      'Code of geo/shapes.py around line 5 (lines 4-6):\n<file>geo/shapes.py</file>\n<code>\n4 \n5 class Shape:\n6     """Anything with an area."""\n</code>',
    );
    expect(await text(b, 'read_file', { file_name: 'geo/legacy.py', start_line: 2, end_line: 3 })).toBe(
      '<file>geo/legacy.py</file> lines 2-3 of 8\n<code>\n2 """Legacy helpers (latin-1: café)."""\n3 from geo.shapes import area\n</code>',
    );
    expect(await call(b, 'read_file', { file_name: 'geo/legacy.py', start_line: 5, end_line: 2 })).toMatchObject({
      ok: false,
      text: 'end_line 2 is before start_line 5.',
    });
    expect(await call(b, 'read_file', { file_name: 'geo/legacy.py', start_line: 50 })).toMatchObject({
      ok: false,
      text: 'start_line 50 is past the end of geo/legacy.py (8 lines).',
    });
    expect(await text(b, 'view_directory', { path: '.', max_results: 3 })).toBe(
      'Contents of .:\ngeo/\n  __init__.py\n  broken.py\n... and 6 more entries (raise max_results or list a subfolder)',
    );
    expect(await call(b, 'view_directory', { path: '../..' })).toMatchObject({
      ok: false,
      text: '../.. is outside the repository.',
    });
  });

  it('search_import_statement lists top-level imports only', async () => {
    expect(await text(b, 'search_import_statement', { file_name: 'geo/report.py' })).toBe(
      'Top-level imports of geo/report.py:\n<file>geo/report.py</file>\n<code>\n1 import geo.shapes as gs\n2 from geo import shape_area\n3 from geo.shapes import Shape\n4 from geo.shapes import area as measure\n</code>',
    );
  });

  it('search_similar_method ranks by BM25 and leaves out the target and tests', async () => {
    const result = await text(b, 'search_similar_method', { n: 3 });
    expect(result.split('\n')[0]).toBe('Found 3 methods similar to geo/shapes.py::area, most similar first:');
    expect(result).toContain('<file>geo/shapes.py</file> <class>Shape</class> <func>area</func>');
    expect(result).not.toContain('<func>area</func>\n<code>\n52 def area(shape):');
    expect(result).not.toContain('tests/');
  });

  it('search_target_usage resolves imports, aliases, re-exports (star imports too) and module attributes, and marks tests', async () => {
    const result = await text(b, 'search_target_usage', { n: 10 });
    const titles = result.split('\n').filter((l) => l.startsWith('- Usage'));
    expect(titles).toEqual([
      '- Usage 1: geo/broken.py:5 in half_area — imported from geo.shapes',
      '- Usage 2: geo/extras.py:5 in all_areas — called on module geo.everything, imported as everything',
      '- Usage 3: geo/legacy.py:8 in legacy_area — imported from geo.shapes',
      '- Usage 4: geo/report.py:13 in biggest — imported from geo.shapes as measure',
      '- Usage 5: geo/report.py:17 in first_area — imported from geo',
      '- Usage 6: geo/report.py:17 in first_area — called on module geo.shapes, imported as gs',
      '- Usage 7: geo/shapes.py:61 in total_area — defined in the same module',
      '- Usage 8: tests/test_shapes.py:7 in test_area_of_none [test] — imported from geo.shapes',
    ]);
    // report.py's own `area` and the `.area()` method calls are not the target.
    expect(result).not.toContain('report.py:26');
    expect(await text(b, 'search_target_usage', { n: 2 })).toContain(
      'Found 8 calls of geo/shapes.py::area; showing 2:',
    );
  });
});

describe('search_target_usage says how the name was imported once per file, in a few words', () => {
  const repo = mkdtempSync(join(tmpdir(), 'tenet-usage-'));
  const files: Record<string, string> = {
    'logic/__init__.py': '',
    'logic/boolalg.py': [
      'def And(*a):',
      '    return all(a)',
      '',
      '',
      'def is_literal(expr):',
      '    """Whether expr is a literal."""',
      '    return True',
      '',
    ].join('\n'),
    'logic/inference.py': [
      'from logic.boolalg import (',
      '    And,',
      '    Or,',
      '    is_literal,',
      ')',
      '',
      '',
      'def literal_symbol(x):',
      '    return is_literal(x)',
      '',
      '',
      'def satisfiable(x):',
      '    return is_literal(x) and And(x)',
      '',
    ].join('\n'),
  };
  let b: Box;
  beforeAll(async () => {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(repo, path)), { recursive: true });
      writeFileSync(join(repo, path), text);
    }
    b = await box(repo, 'logic/boolalg.py::is_literal');
  });
  afterAll(async () => {
    await b.dispose();
    rmSync(repo, { recursive: true, force: true });
  });

  it('not the whole import statement at every usage', async () => {
    const result = await text(b, 'search_target_usage', { n: 5 });
    expect(result.split('\n').filter((l) => l.startsWith('- Usage'))).toEqual([
      '- Usage 1: logic/inference.py:9 in literal_symbol — imported from logic.boolalg',
      '- Usage 2: logic/inference.py:13 in satisfiable',
    ]);
    expect(result).not.toContain('And,');
  });
});

describe('search_target_usage for a method', () => {
  let b: Box;
  beforeAll(async () => {
    b = await box('toolbox', 'geo/shapes.py::Shape.describe');
  });
  afterAll(() => b.dispose());

  it('resolves self, super() in subclasses, calls on the class or a new instance; unknown receivers come last', async () => {
    const result = await text(b, 'search_target_usage', { n: 10 });
    expect(result.split('\n')[0]).toBe(
      'Found 5 calls of geo/shapes.py::Shape.describe (4 resolved, 1 on receivers of unknown type, listed last); showing 5:',
    );
    expect(result.split('\n').filter((l) => l.startsWith('- Usage'))).toEqual([
      '- Usage 1: geo/report.py:21 in describe_all — called on the class Shape',
      '- Usage 2: geo/shapes.py:36 in Circle.describe — super().describe() in a subclass',
      '- Usage 3: geo/shapes.py:49 in Square.label — self.describe() in a subclass',
      '- Usage 4: tests/test_shapes.py:15 in test_describe [test] — called on a new Square',
      '- Usage 5: geo/report.py:8 in summary — receiver `s` of unknown type',
    ]);
  });
});

// The same tools and the same answers whether Python runs here or in a container.
describe.each(SANDBOXES)(
  'implementation, tests and the debugger on the shop fixture (benchmark mode), %s sandbox',
  (_name, sandbox) => {
    let b: Box;
    const selected = [
      'tests/test_pricing.py::test_apply_discount_basic',
      'tests/test_pricing.py::test_apply_discount_rejects_bad_percent',
    ];
    beforeAll(async () => {
      b = await box('shop', 'shop/pricing.py::apply_discount', { blank: true, selected, sandbox });
    });
    afterAll(() => b.dispose());

    it('the workspace starts from the blank; run_tests reports the failures', async () => {
      const workspaceText = readFileSync(b.task.workspace.path('shop/pricing.py'), 'utf8');
      expect(workspaceText).toContain('0..100.\n    """\n    raise NotImplementedError\n\n\ndef cart_total');
      const report = await text(b, 'run_tests', {});
      expect(report.split('\n').slice(0, 3)).toEqual([
        'Ran 2 tests: 0 passed, 2 not passing.',
        'FAILED tests/test_pricing.py::test_apply_discount_basic',
        'FAILED tests/test_pricing.py::test_apply_discount_rejects_bad_percent',
      ]);
      expect(report).toContain(
        '    shop/pricing.py:11: in apply_discount\n        raise NotImplementedError\n    E   NotImplementedError',
      );
    });

    it('submit_implementation refuses broken code with a message, then applies a fix that passes', async () => {
      expect(
        await call(b, 'submit_implementation', { code: 'def apply_discount(price, percent)\n    return price' }),
      ).toMatchObject({ ok: false });
      const wrong = await call(b, 'submit_implementation', {
        code: 'def apply_discount(price, percent):\n    return price',
      });
      expect(wrong).toMatchObject({
        ok: true,
        text: 'Your implementation of shop/pricing.py::apply_discount is in place (shop/pricing.py, lines 6-11). Run run_tests to check it.',
      });
      const failing = await text(b, 'run_tests', {});
      expect(failing).toContain('E   AssertionError: assert 100.0 == 85.0');
      expect(failing).toContain('E   Failed: DID NOT RAISE');
      await call(b, 'submit_implementation', {
        code: '```python\n    def apply_discount(price, percent):\n        if not 0 <= percent <= 100:\n            raise ValueError("percent")\n        return round(price * (100 - percent) / 100, 2)\n```',
      });
      expect((await text(b, 'run_tests', {})).split('\n')[0]).toBe('Ran 2 tests: 2 passed, 0 not passing.');
      // The index follows the workspace.
      expect(
        await text(b, 'search_method_in_file', { method_name: 'apply_discount', file_name: 'shop/pricing.py' }),
      ).toContain('raise ValueError("percent")');
    });

    it('submit_tests writes test_by_agent.py next to the selected tests, and run_tests runs it too', async () => {
      expect(await call(b, 'submit_tests', { code: 'x = 1' })).toMatchObject({
        ok: false,
        text: 'The module has no test: write functions named test_… (or methods of a class named Test…).',
      });
      const written = await text(b, 'submit_tests', {
        code: 'from shop.pricing import apply_discount\n\ndef test_zero():\n    assert apply_discount(5.0, 0) == 5.0\n\ndef test_full():\n    assert apply_discount(5.0, 100) == 1.0\n',
      });
      expect(written).toBe("Wrote 2 tests to tests/test_by_agent.py. run_tests runs them with the session's tests.");
      const report = await text(b, 'run_tests', {});
      expect(report.split('\n').slice(0, 5)).toEqual([
        'Ran 4 tests: 3 passed, 1 not passing.',
        'PASSED tests/test_pricing.py::test_apply_discount_basic',
        'PASSED tests/test_pricing.py::test_apply_discount_rejects_bad_percent',
        'PASSED tests/test_by_agent.py::test_zero',
        'FAILED tests/test_by_agent.py::test_full',
      ]);
      expect(await text(b, 'finish', { reason: 'done' })).toBe('Finished: done');
    });

    it('run_debugger_cmd keeps a shell, drives pdb a line at a time, interrupts what runs too long', async () => {
      const d = b.ctx.debugger();
      // What the pane and the session log get: the live chunks, never tenet's end-of-command marker.
      const chunks: string[] = [];
      const stop = d.onEvent((e) => e.type === 'output' && chunks.push(e.chunk));
      expect(await text(b, 'run_debugger_cmd', { cmd: 'cd shop && export GREETING=hi' })).toBe('(no output)\n[shell]');
      expect(await text(b, 'run_debugger_cmd', { cmd: 'echo $GREETING from $(basename $PWD)' })).toBe(
        'hi from shop\n[shell]',
      );
      await text(b, 'run_debugger_cmd', { cmd: 'cd ..' });
      const started = await text(b, 'run_debugger_cmd', {
        cmd: 'python -m pytest -q tests/test_pricing.py::test_apply_discount_basic --trace -p no:cacheprovider',
      });
      expect(started).toMatch(/\(Pdb\) $/);
      expect(d.currentMode).toBe('pdb');
      expect(await text(b, 'run_debugger_cmd', { cmd: 'p apply_discount(200.0, 50)' })).toBe('100.0\n(Pdb) ');
      const after = await text(b, 'run_debugger_cmd', { cmd: 'c' });
      expect(after).toContain('1 passed');
      expect(after.endsWith('[shell]')).toBe(true);
      const slow = await text(b, 'run_debugger_cmd', { cmd: 'sleep 30' });
      expect(slow).toContain('[tenet: the command ran past 8s and was interrupted with Ctrl-C]');
      expect(await text(b, 'run_debugger_cmd', { cmd: 'echo still here' })).toBe('still here\n[shell]');
      expect(await text(b, 'run_debugger_cmd', { cmd: 'restart' })).toBe('A fresh shell session is ready.');
      expect(await text(b, 'run_debugger_cmd', { cmd: 'echo ${GREETING:-gone}' })).toBe('gone\n[shell]');
      expect(d.transcript.every((entry) => entry.who === 'agent')).toBe(true);
      expect(d.transcript.find((e) => e.input === 'p apply_discount(200.0, 50)')).toMatchObject({
        mode: 'pdb',
        output: '100.0\n(Pdb) ',
      });
      stop();
      expect(chunks.filter((c) => c.includes('__tenet_done'))).toEqual([]);
      expect(chunks.join('')).toContain('hi from shop\n');
      expect(chunks.join('')).toContain('100.0\n(Pdb) ');
    }, 60_000);

    it('a second writer (a developer) shares the session, and the transcript says who typed what', async () => {
      const d = b.ctx.debugger();
      const [human, agent] = await Promise.all([
        d.run('echo from the developer', 'human'),
        d.run('echo from the agent', 'agent'),
      ]);
      expect([human, agent]).toEqual(['from the developer', 'from the agent']);
      expect(d.transcript.slice(-2).map((e) => [e.who, e.input])).toEqual([
        ['human', 'echo from the developer'],
        ['agent', 'echo from the agent'],
      ]);
    });
  },
);

describe('a submission into a latin-1 module', () => {
  it('changes the function and leaves every other byte as it was', async () => {
    const b = await box('toolbox', 'geo/legacy.py::legacy_area');
    try {
      const before = readFileSync(b.task.workspace.path('geo/legacy.py'));
      await call(b, 'submit_implementation', { code: 'def legacy_area(shape):\n    return 2 * area(shape)' });
      const after = readFileSync(b.task.workspace.path('geo/legacy.py'));
      expect(after.subarray(0, 100).toString('latin1')).toBe(before.subarray(0, 100).toString('latin1'));
      // The docstring the code left out is kept (with its latin-1 character).
      expect(after.toString('latin1')).toContain(
        'def legacy_area(shape):\n    """Area, the old way \u00a9."""\n    return 2 * area(shape)\n',
      );
      expect(after.includes(Buffer.from([0xe9]))).toBe(true);
    } finally {
      await b.dispose();
    }
  });
});

describe('tool definitions', () => {
  it('are JSON schemas with the documented argument names', () => {
    const definitions = toolDefinitions(TOOLS.map((t) => t.name));
    const byName = Object.fromEntries(definitions.map((d) => [d.name, d.parameters]));
    expect(Object.keys(byName)).toEqual([
      'search_class',
      'search_class_in_file',
      'search_method',
      'search_method_in_class',
      'search_method_in_file',
      'search_code',
      'search_code_in_file',
      'get_code_around_line',
      'search_similar_method',
      'search_target_usage',
      'search_import_statement',
      'run_debugger_cmd',
      'view_directory',
      'read_file',
      'submit_implementation',
      'run_tests',
      'submit_tests',
      'finish',
    ]);
    expect(byName.get_code_around_line).toMatchObject({
      type: 'object',
      properties: {
        file_name: { type: 'string' },
        line_number: { type: 'integer' },
        window_size: { type: 'integer', default: 10 },
      },
      required: ['file_name', 'line_number'],
    });
    expect(byName.run_tests).toMatchObject({ type: 'object', properties: {} });
  });
});
