import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openTask, type OpenTask } from '../../source/engine/task/open-task';
import { callTool } from '../../source/engine/tools/call-tool';
import type { ToolContext } from '../../source/engine/tools/context';
import { describeSyntaxError } from '../../source/engine/python-source/syntax-error';
import { similarityCorpus } from '../../source/engine/tools/similar-method';
import { findTargetUsages } from '../../source/engine/tools/target-usage';
import { openToolbox } from '../../source/engine/tools/toolbox';
import { warmUpSteps } from '../../source/engine/tools/warm-up';
import { FIXTURES } from '../helpers/fixtures';

interface Box {
  task: OpenTask;
  ctx: ToolContext;
  /** A path in the session's workspace. */
  path(rel: string): string;
  dispose(): Promise<void>;
}

async function box(repo: string, target: string): Promise<Box> {
  const task = await openTask({ repo: join(FIXTURES, repo), target, blank: false });
  const toolbox = await openToolbox(task, { selectedTests: [], indexCacheFile: null, debuggerTimeoutMs: 8000 });
  return {
    task,
    ctx: toolbox.ctx,
    path: (rel) => task.workspace.path(rel),
    dispose: async () => {
      toolbox.dispose();
      await task.dispose();
    },
  };
}

const call = (b: Box, name: string, args: unknown) => callTool(name, args, b.ctx);
const shell = async (b: Box, cmd: string) => expect((await call(b, 'run_debugger_cmd', { cmd })).ok).toBe(true);

describe('tool failures come back as text', () => {
  let b: Box;
  beforeEach(async () => {
    b = await box('toolbox', 'geo/shapes.py::area');
  });
  afterEach(() => b.dispose());

  it('after `rm` in the shell, read_file and search_code answer, without the deleted file', async () => {
    expect(await call(b, 'search_code', { code_str: 'shape_area' })).toMatchObject({ ok: true });
    await shell(b, 'rm geo/__init__.py');
    expect(await call(b, 'read_file', { file_name: 'geo/__init__.py' })).toMatchObject({
      ok: false,
      text: 'No file geo/__init__.py in the repository. Use a path relative to the repository root, as search results and view_directory show it.',
    });
    const found = await call(b, 'search_code', { code_str: 'shape_area' });
    expect(found.ok).toBe(true);
    expect(found.text).not.toContain('geo/__init__.py');
    expect(found.text).toContain('geo/report.py');
    expect(b.ctx.index.file('geo/__init__.py')).toBeUndefined();
  });

  it('a file deleted behind the index’s back is an error the model can act on, then gone from the index', async () => {
    rmSync(b.path('geo/report.py'));
    const first = await call(b, 'search_code', { code_str: 'def ' });
    expect(first).toMatchObject({ ok: false });
    expect(first.text).toBe(
      'search_code failed: the file geo/report.py is no longer in the workspace (deleted or moved, e.g. by a shell command). The index has been refreshed: search again, or list the folder with view_directory.',
    );
    const again = await call(b, 'search_code', { code_str: 'def ' });
    expect(again.ok).toBe(true);
    expect(again.text).not.toContain('geo/report.py');
  });

  it('any other failure of a tool is an observation too; a cancellation is passed on', async () => {
    const broken = Object.create(b.ctx.index, {
      lines: {
        value: () => {
          throw new TypeError('boom');
        },
      },
    });
    const outcome = await callTool('read_file', { file_name: 'geo/shapes.py' }, { ...b.ctx, index: broken });
    expect(outcome).toMatchObject({ ok: false, name: 'read_file' });
    expect(outcome.text).toBe(
      "read_file failed: boom\nThis is a problem on tenet's side, not in your arguments: try again once, then carry on with other tools.",
    );
    const stopped = callTool(
      'run_debugger_cmd',
      { cmd: 'ls' },
      { ...b.ctx, approveCommand: async () => ({ stop: true }) },
    );
    await expect(stopped).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('the index after tools that change files', () => {
  let b: Box;
  beforeAll(async () => {
    b = await box('toolbox', 'geo/shapes.py::area');
  });
  afterAll(() => b.dispose());

  it('sees a `sed -i` from the shell: read_file, search_method and call sites', async () => {
    expect((await call(b, 'read_file', { file_name: 'geo/report.py', start_line: 24, end_line: 24 })).text).toContain(
      '24 def area(x):',
    );
    await shell(b, "sed -i 's/def area(x)/def careful(x)/' geo/report.py");
    expect((await call(b, 'read_file', { file_name: 'geo/report.py', start_line: 24, end_line: 24 })).text).toContain(
      '24 def careful(x):',
    );
    expect((await call(b, 'search_method', { method_name: 'careful' })).text).toContain(
      '<file>geo/report.py</file> <func>careful</func>',
    );
  });

  it('sees new files from the shell, and what a developer types in it', async () => {
    await shell(
      b,
      "printf 'from geo.shapes import area\\n\\n\\ndef brand_new(s):\\n    return area(s)\\n' > geo/fresh.py",
    );
    expect((await call(b, 'search_method', { method_name: 'brand_new' })).text).toContain(
      '<file>geo/fresh.py</file> <func>brand_new</func>',
    );
    expect((await call(b, 'search_target_usage', { n: 30 })).text).toContain('geo/fresh.py:5 in brand_new');
    // The developer took the shell over: no tool ran, yet the index looks again.
    await b.ctx.debugger().run("sed -i 's/brand_new/renamed_new/' geo/fresh.py", 'human');
    expect((await call(b, 'search_method', { method_name: 'renamed_new' })).text).toContain('<func>renamed_new</func>');
  });
});

describe('read_file reads any text file of the workspace', () => {
  let b: Box;
  let outside: string;
  beforeAll(async () => {
    b = await box('toolbox', 'geo/shapes.py::area');
    writeFileSync(b.path('pyproject.toml'), '[project]\nname = "geo"\nversion = "0.1"\r\n');
    mkdirSync(b.path('docs'));
    writeFileSync(b.path('docs/notes.md'), `# Notes\n${'x'.repeat(2500)}\n`);
    writeFileSync(b.path('docs/logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]));
    writeFileSync(b.path('docs/big.csv'), Buffer.alloc(5 * 1024 * 1024, 'a'));
    outside = mkdtempSync(join(tmpdir(), 'tenet-outside-'));
    writeFileSync(join(outside, 'secret.txt'), 'secret\n');
    symlinkSync(join(outside, 'secret.txt'), b.path('docs/link.txt'));
  });
  afterAll(async () => {
    rmSync(outside, { recursive: true, force: true });
    await b.dispose();
  });

  it('shows configuration and docs with line numbers, long lines cut', async () => {
    expect(await call(b, 'read_file', { file_name: 'pyproject.toml' })).toMatchObject({
      ok: true,
      text: '<file>pyproject.toml</file> lines 1-3 of 3\n<code>\n1 [project]\n2 name = "geo"\n3 version = "0.1"\n</code>',
    });
    const notes = await call(b, 'read_file', { file_name: 'docs/notes.md', start_line: 2 });
    expect(notes.text).toContain(`2 ${'x'.repeat(2000)} [... 500 more characters on this line]`);
    expect(
      (await call(b, 'get_code_around_line', { file_name: 'pyproject.toml', line_number: 2, window_size: 0 })).text,
    ).toContain('2 name = "geo"');
  });

  it('refuses what it cannot show, saying why', async () => {
    expect(await call(b, 'read_file', { file_name: 'docs/logo.png' })).toMatchObject({
      ok: false,
      text: 'docs/logo.png is a binary file (12 bytes); read_file shows text files only.',
    });
    expect(await call(b, 'read_file', { file_name: 'docs/big.csv' })).toMatchObject({
      ok: false,
      text: expect.stringMatching(
        /^docs\/big\.csv is 5\.0 MB, more than read_file reads \(4 MB\)\. Look into it with run_debugger_cmd/,
      ),
    });
    expect(await call(b, 'read_file', { file_name: '../../etc/passwd' })).toMatchObject({
      ok: false,
      text: '../../etc/passwd is outside the repository: read_file reads files inside it only.',
    });
    expect(await call(b, 'read_file', { file_name: 'docs/link.txt' })).toMatchObject({
      ok: false,
      text: 'docs/link.txt leads outside the repository (a symbolic link): read_file reads files inside it only.',
    });
    expect(await call(b, 'read_file', { file_name: 'docs' })).toMatchObject({
      ok: false,
      text: 'docs is a folder, not a file; list it with view_directory.',
    });
    expect(await call(b, 'read_file', { file_name: 'shapes.txt' })).toMatchObject({
      ok: false,
      text: expect.stringContaining('No file shapes.txt in the repository.'),
    });
    expect(await call(b, 'search_class_in_file', { class_name: 'X', file_name: 'pyproject.toml' })).toMatchObject({
      ok: false,
      text: 'pyproject.toml is not a Python file: this tool searches the indexed .py files. Read it with read_file.',
    });
  });
});

describe('syntax errors point at the mistake', () => {
  let b: Box;
  beforeAll(async () => {
    b = await box('toolbox', 'geo/shapes.py::area');
  });
  afterAll(() => b.dispose());

  it("submit_implementation gives Python's position and reason for a def without its colon", async () => {
    const outcome = await call(b, 'submit_implementation', {
      code: 'def area(shape)\n    """Area."""\n    return 0\n',
    });
    expect(outcome).toMatchObject({ ok: false });
    expect(outcome.text).toBe(
      "The code does not parse (Python syntax error at line 1, column 16: expected ':'\n    def area(shape)\n                   ^).\nFix it and submit the whole function again.",
    );
    const tests = await call(b, 'submit_tests', { code: 'def test_a():\n    assert (1 +\n' });
    expect(tests.text).toMatch(
      /^The test module does not parse \(Python syntax error at line 2, column \d+: '\(' was never closed/,
    );
  });

  it('without Python, the position comes from the tree: the end of the broken line, not line 1 column 1', async () => {
    expect(await describeSyntaxError('def has_path(G, s, t)\n    return nx.has_path(G, s, t)\n')).toBe(
      'line 1, column 22\n    def has_path(G, s, t)\n                         ^',
    );
    expect(await describeSyntaxError('def f(x):\n  if x\n    return 1\n')).toBe(
      'line 2, column 7\n    if x\n        ^',
    );
    expect(await describeSyntaxError('def f(x):\n    return x\n')).toBeUndefined();
  });
});

describe('the toolbox warms up the first searches', () => {
  it('builds what the first calls need, kept until a file changes', async () => {
    const b = await box('toolbox', 'geo/shapes.py::area');
    try {
      for (const step of warmUpSteps(b.ctx)) step();
      const usages = findTargetUsages(b.ctx.index, b.ctx.target);
      const corpus = similarityCorpus(b.ctx.index);
      expect(usages.length).toBeGreaterThan(0);
      expect(findTargetUsages(b.ctx.index, b.ctx.target)).toBe(usages);
      expect(similarityCorpus(b.ctx.index)).toBe(corpus);
      await shell(b, 'touch geo/report.py && echo "x = 1" >> geo/extras.py');
      await call(b, 'search_class', { class_name: 'Shape' });
      expect(findTargetUsages(b.ctx.index, b.ctx.target)).not.toBe(usages);
      expect(similarityCorpus(b.ctx.index)).not.toBe(corpus);
    } finally {
      await b.dispose();
    }
  });
});
