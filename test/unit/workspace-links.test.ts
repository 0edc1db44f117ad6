import { execFileSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { buildIndex } from '../../source/engine/index/build-index';
import { readFileTool, viewDirectory } from '../../source/engine/tools/file-tools';
import type { ToolContext } from '../../source/engine/tools/context';
import { ToolInputError } from '../../source/engine/tools/tool';
import { OutsideWorkspaceError } from '../../source/engine/workspace/inside';
import { Workspace } from '../../source/engine/workspace/workspace';
import { snapshot } from '../helpers/snapshot';

/**
 * Code in a sandbox may change the workspace under tenet (with `--mount` a container writes the
 * very folder tenet reads and writes): here the links are planted by hand, as such code would.
 * Nothing outside the workspace may be read through them or change.
 */
const scratch = mkdtempSync(join(tmpdir(), 'tenet-links-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let repo: string;
let outside: string;
let workspace: Workspace;
beforeEach(async () => {
  const case_ = mkdtempSync(join(scratch, 'case-'));
  repo = join(case_, 'repo');
  outside = join(case_, 'outside');
  mkdirSync(join(repo, 'tests'), { recursive: true });
  mkdirSync(join(outside, '__pycache__'), { recursive: true });
  writeFileSync(join(repo, 'mod.py'), 'def f():\n    pass\n');
  writeFileSync(join(repo, 'tests', 'test_mod.py'), 'def test_f():\n    assert f()\n');
  writeFileSync(join(outside, 'venv.pth'), 'import os  # a host file\n');
  writeFileSync(join(outside, '__pycache__', 'mod.cpython-311.pyc'), 'bytecode');
  workspace = await Workspace.create(repo, { parent: case_ });
  return () => workspace.dispose();
});

/** Replaces a workspace path by a link, the way code in a container would. */
const plant = (rel: string, target: string) => {
  rmSync(workspace.path(rel), { recursive: true, force: true });
  symlinkSync(target, workspace.path(rel));
};

describe('writes never go through a link out of the workspace', () => {
  it('a file swapped for a link to a host file: the link is replaced by the file, the host file stays', async () => {
    const before = snapshot(outside);
    plant('tests/test_by_agent.py', join(outside, 'venv.pth'));
    await workspace.write('tests/test_by_agent.py', 'def test_x():\n    pass\n');
    expect(snapshot(outside)).toEqual(before);
    expect(lstatSync(workspace.path('tests/test_by_agent.py')).isFile()).toBe(true);
    expect(readFileSync(workspace.path('tests/test_by_agent.py'), 'utf8')).toBe('def test_x():\n    pass\n');
  });

  it('a dangling link to a host path creates nothing there', async () => {
    plant('mod.py', join(outside, 'created.py'));
    await workspace.write('mod.py', 'def f():\n    return 1\n');
    expect(existsSync(join(outside, 'created.py'))).toBe(false);
    expect(readFileSync(workspace.path('mod.py'), 'utf8')).toBe('def f():\n    return 1\n');
  });

  it('a folder swapped for a link out is refused, and nothing is created through it', async () => {
    const before = snapshot(outside);
    plant('tests', outside);
    await expect(workspace.write('tests/test_by_agent.py', 'x = 1\n')).rejects.toThrow(OutsideWorkspaceError);
    await expect(workspace.write('tests/new/deeper.py', 'x = 1\n')).rejects.toThrow(OutsideWorkspaceError);
    expect(snapshot(outside)).toEqual(before);
  });

  it("a __pycache__ swapped for a link out keeps its files: a write drops only the workspace's own bytecode", async () => {
    const before = snapshot(outside);
    plant('__pycache__', join(outside, '__pycache__'));
    await workspace.write('mod.py', 'def f():\n    return 2\n');
    expect(snapshot(outside)).toEqual(before);
  });

  it('a fifo in place of a file neither blocks a write nor receives it', async () => {
    rmSync(workspace.path('mod.py'));
    execFileSync('mkfifo', [workspace.path('mod.py')]);
    await workspace.write('mod.py', 'def f():\n    return 3\n');
    expect(lstatSync(workspace.path('mod.py')).isFile()).toBe(true);
  });
});

describe('reads never follow a link out of the workspace', () => {
  it('a file swapped for a link to a host file is refused, a link inside is read', async () => {
    plant('mod.py', join(outside, 'venv.pth'));
    await expect(workspace.read('mod.py')).rejects.toThrow(OutsideWorkspaceError);
    symlinkSync('test_mod.py', workspace.path('tests/alias.py'));
    expect((await workspace.read('tests/alias.py')).toString()).toContain('def test_f');
  });

  it('a folder on the way swapped for a link out is refused', async () => {
    renameSync(workspace.path('tests'), workspace.path('tests-moved'));
    mkdirSync(join(outside, 'tests'));
    writeFileSync(join(outside, 'tests', 'test_mod.py'), 'SECRET = 1\n');
    symlinkSync(join(outside, 'tests'), workspace.path('tests'));
    await expect(workspace.read('tests/test_mod.py')).rejects.toThrow(OutsideWorkspaceError);
  });

  it('a fifo is refused at once, not waited on', async () => {
    rmSync(workspace.path('mod.py'));
    execFileSync('mkfifo', [workspace.path('mod.py')]);
    await expect(workspace.read('mod.py')).rejects.toThrow('not a regular file');
  });

  it('view_directory lists a planted link to / as a link and will not list through it; read_file will not read through one', async () => {
    symlinkSync('/', workspace.path('root'));
    symlinkSync(join(outside, 'venv.pth'), workspace.path('notes.txt'));
    const { index } = await buildIndex(workspace.root, { cacheFile: null });
    const ctx = { workspace, index } as unknown as ToolContext;
    const listing = await viewDirectory.run({ path: '.', max_results: 100 }, ctx);
    expect(listing).toContain('root@');
    expect(listing).not.toContain('etc');
    await expect(async () => viewDirectory.run({ path: 'root', max_results: 100 }, ctx)).rejects.toThrow(
      new ToolInputError(
        'root leads outside the repository (a symbolic link): view_directory lists folders inside it only.',
      ),
    );
    await expect(async () => viewDirectory.run({ path: 'root/etc', max_results: 100 }, ctx)).rejects.toThrow(
      ToolInputError,
    );
    await expect(async () => readFileTool.run({ file_name: 'notes.txt', start_line: 1 }, ctx)).rejects.toThrow(
      'notes.txt leads outside the repository (a symbolic link)',
    );
    await expect(async () => readFileTool.run({ file_name: 'root/etc/passwd', start_line: 1 }, ctx)).rejects.toThrow(
      'leads outside the repository',
    );
  });
});
