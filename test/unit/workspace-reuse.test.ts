import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parkedCopyPath } from '../../source/engine/workspace/parked-copy';
import { collectScratch } from '../../source/engine/workspace/scratch-gc';
import { Workspace } from '../../source/engine/workspace/workspace';
import { snapshot } from '../helpers/snapshot';

/**
 * Issue 17: a finished run leaves its workspace for the next run of the same repository, which
 * brings it up to date instead of copying everything again. Whatever the last run (or code it
 * ran) did to it, the next run's workspace is what a fresh copy would be, and nothing outside is
 * touched on the way.
 */
const scratch = mkdtempSync(join(tmpdir(), 'tenet-reuse-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function repository(name: string): string {
  const repo = join(scratch, name);
  mkdirSync(join(repo, 'pkg', '__pycache__'), { recursive: true });
  mkdirSync(join(repo, 'tests'), { recursive: true });
  writeFileSync(join(repo, 'pkg', '__init__.py'), '');
  writeFileSync(join(repo, 'pkg', 'mod.py'), 'def f():\n    return 1\n');
  writeFileSync(join(repo, 'pkg', '__pycache__', 'mod.cpython-311.pyc'), 'bytecode');
  writeFileSync(join(repo, 'tests', 'test_mod.py'), 'def test_f():\n    assert True\n');
  writeFileSync(join(repo, 'data.txt'), 'one\n');
  writeFileSync(join(repo, 'README.md'), '# repo\n');
  symlinkSync('pkg/mod.py', join(repo, 'alias.py'));
  return repo;
}

/** A fresh copy's snapshot (a workspace made without reuse), and the mode of every file in it. */
async function freshCopy(
  repo: string,
  parent: string,
): Promise<{ files: Record<string, string>; modes: Record<string, number>; stats: Workspace['stats'] }> {
  const fresh = await Workspace.create(repo, { parent });
  try {
    return { files: snapshot(fresh.root), modes: modes(fresh.root), stats: fresh.stats };
  } finally {
    await fresh.dispose();
  }
}

function modes(root: string): Record<string, number> {
  const out: Record<string, number> = {};
  const walk = (dir: string, rel: string) => {
    for (const name of readdirSync(dir)) {
      const info = lstatSync(join(dir, name));
      out[`${rel}${name}`] = info.mode;
      if (info.isDirectory()) walk(join(dir, name), `${rel}${name}/`);
    }
  };
  walk(root, '');
  return out;
}

describe('a workspace left for the next run of the same repository', () => {
  it('is taken, brought up to date whatever the last run did to it, and is then what a fresh copy is', async () => {
    const repo = repository('repo');
    const parent = mkdtempSync(join(scratch, 'tmp-'));
    const outside = join(scratch, 'outside.txt');
    writeFileSync(outside, 'the host file\n');

    const first = await Workspace.create(repo, { parent, reuse: true });
    // What a run (the tests, the agent, tenet itself) may leave behind in it.
    await first.write('pkg/mod.py', 'def f():\n    raise NotImplementedError\n');
    writeFileSync(first.path('new_module.py'), 'x = 1\n');
    mkdirSync(first.path('.pytest_cache/v'), { recursive: true });
    mkdirSync(first.path('.git'));
    rmSync(first.path('data.txt'));
    mkdirSync(first.path('data.txt'));
    rmSync(first.path('tests'), { recursive: true });
    symlinkSync(scratch, first.path('tests'));
    rmSync(first.path('alias.py'));
    symlinkSync(outside, first.path('alias.py'));
    rmSync(first.path('pkg/__init__.py'));
    linkSync(outside, first.path('pkg/__init__.py'));
    chmodSync(first.path('README.md'), 0o600);
    // A hard link to a host file just like the repository's (size, time, mode): kept, a later
    // write in the workspace would go to the host file.
    const twin = join(scratch, 'twin.txt');
    writeFileSync(twin, 'test data\n');
    writeFileSync(join(repo, 'notes.txt'), 'test data\n');
    const { atime, mtime, mode } = statSync(join(repo, 'notes.txt'));
    utimesSync(twin, atime, mtime);
    chmodSync(twin, mode);
    utimesSync(join(repo, 'notes.txt'), atime, mtime);
    linkSync(twin, first.path('notes.txt'));
    await first.dispose();
    const parked = parkedCopyPath(parent, repo);
    expect(readdirSync(parent)).toEqual([basename(parked)]);

    // Meanwhile the developer edits the repository.
    writeFileSync(join(repo, 'pkg', 'other.py'), 'y = 2\n');
    writeFileSync(join(repo, 'tests', 'test_mod.py'), 'def test_f():\n    assert 1\n');
    const later = new Date(Date.now() + 2000);
    utimesSync(join(repo, 'tests', 'test_mod.py'), later, later);

    const fresh = await freshCopy(repo, parent);
    const second = await Workspace.create(repo, { parent, reuse: true });
    let kept: number;
    try {
      expect(existsSync(parked)).toBe(false);
      expect(snapshot(second.root)).toEqual(fresh.files);
      expect(modes(second.root)).toEqual(fresh.modes);
      expect(second.stats).toEqual(fresh.stats);
      // Nothing was written through the planted links or the hard link.
      expect(readFileSync(outside, 'utf8')).toBe('the host file\n');
      expect(lstatSync(outside).nlink).toBe(1);
      expect(lstatSync(twin).nlink).toBe(1);
      kept = statSync(second.path('pkg/other.py')).ino;
    } finally {
      await second.dispose();
    }
    // A file that did not change since is the very one the last run had: kept, not copied again.
    const third = await Workspace.create(repo, { parent, reuse: true });
    expect(statSync(third.path('pkg/other.py')).ino).toBe(kept);
    await third.dispose();
  });

  it('goes to one run at a time: another run at once copies afresh, and only one copy stays parked', async () => {
    const repo = repository('busy');
    const parent = mkdtempSync(join(scratch, 'tmp-'));
    await (await Workspace.create(repo, { parent, reuse: true })).dispose();
    const [a, b] = await Promise.all([
      Workspace.create(repo, { parent, reuse: true }),
      Workspace.create(repo, { parent, reuse: true }),
    ]);
    expect(a.root).not.toBe(b.root);
    expect(snapshot(a.root)).toEqual(snapshot(b.root));
    await a.dispose();
    await b.dispose();
    expect(readdirSync(parent)).toEqual([basename(parkedCopyPath(parent, repo))]);
    // The same repository through a link of another name: one copy, under the new name.
    const spelled = join(scratch, 'busy-link');
    symlinkSync(repo, spelled);
    const linked = await Workspace.create(spelled, { parent, reuse: true });
    expect(readdirSync(dirname(linked.root)).sort()).toEqual(['busy-link', 'tenet-owner.json']);
    expect(snapshot(linked.root)).toEqual((await freshCopy(repo, parent)).files);
    await linked.dispose();
  });

  it('that cannot be brought up to date (a file there cannot be removed) gives way to a fresh copy', async () => {
    const repo = repository('stuck');
    const parent = mkdtempSync(join(scratch, 'tmp-'));
    const first = await Workspace.create(repo, { parent, reuse: true });
    writeFileSync(first.path('stuck.txt'), 'left by a run\n');
    await first.dispose();
    const stuck = join(parkedCopyPath(parent, repo), 'stuck', 'stuck.txt');
    // An immutable file: not even root removes it (chattr +i).
    const immutable = spawnSync('chattr', ['+i', stuck]);
    try {
      expect(immutable.status, `chattr: ${immutable.stderr}`).toBe(0);
      const second = await Workspace.create(repo, { parent, reuse: true });
      expect(snapshot(second.root)).toEqual((await freshCopy(repo, parent)).files);
      await second.dispose();
    } finally {
      spawnSync('chattr', [
        '-i',
        ...readdirSync(parent)
          .map((name) => join(parent, name, 'stuck', 'stuck.txt'))
          .filter((path) => existsSync(path)),
      ]);
    }
  });

  it('is kept for the last 8 repositories worked on (and any of the last ten minutes), none older than a week', async () => {
    const parent = mkdtempSync(join(scratch, 'tmp-'));
    const repos = Array.from({ length: 10 }, (_, index) => repository(`many-${index}`));
    const parkedOf = (repo: string) => basename(parkedCopyPath(parent, repo));
    for (const [index, repo] of repos.entries()) {
      await (await Workspace.create(repo, { parent, reuse: true })).dispose();
      // Each an hour after the one before.
      const when = new Date(Date.now() - 3_600_000 * (10 - index));
      utimesSync(parkedCopyPath(parent, repo), when, when);
    }
    expect(readdirSync(parent).sort()).toEqual(repos.slice(2).map(parkedOf).sort());

    // Ten parked within the last minutes (a suite's or a benchmark's runs at once): none goes.
    const busy = mkdtempSync(join(scratch, 'tmp-'));
    for (const repo of repos) await (await Workspace.create(repo, { parent: busy, reuse: true })).dispose();
    expect(readdirSync(busy)).toHaveLength(10);

    const quiet = mkdtempSync(join(scratch, 'tmp-'));
    const [old, recent] = [repository('old'), repository('recent')];
    await (await Workspace.create(old, { parent: quiet, reuse: true })).dispose();
    const weekAgo = new Date(Date.now() - 8 * 24 * 3600 * 1000);
    utimesSync(parkedCopyPath(quiet, old), weekAgo, weekAgo);
    await (await Workspace.create(recent, { parent: quiet, reuse: true })).dispose();
    expect(readdirSync(quiet)).toEqual([basename(parkedCopyPath(quiet, recent))]);
  });

  it('keeps the bytecode a run compiled there for the modules beside it, and nothing else the repository lacks', async () => {
    const repo = repository('bytecode');
    const parent = mkdtempSync(join(scratch, 'tmp-'));
    const outside = join(scratch, 'outside.pyc');
    writeFileSync(outside, 'host bytes\n');
    const first = await Workspace.create(repo, { parent, reuse: true });
    // What the tests' processes write where bytecode is written: compiled modules, pytest's rewrites.
    mkdirSync(first.path('tests/__pycache__'));
    writeFileSync(first.path('tests/__pycache__/test_mod.cpython-311-pytest-9.0.3.pyc'), 'rewritten');
    writeFileSync(first.path('pkg/__pycache__/__init__.cpython-311.pyc'), 'compiled');
    // And what may not stay: bytecode of no module here, other files, links, a hard link.
    writeFileSync(first.path('tests/__pycache__/gone.cpython-311.pyc'), 'orphan');
    writeFileSync(first.path('tests/__pycache__/notes.txt'), 'not bytecode');
    symlinkSync(outside, first.path('tests/__pycache__/test_mod.cpython-311.opt-1.pyc'));
    linkSync(outside, first.path('pkg/__pycache__/mod.cpython-312.pyc'));
    symlinkSync(scratch, first.path('__pycache__'));
    await first.dispose();

    const fresh = await freshCopy(repo, parent);
    const second = await Workspace.create(repo, { parent, reuse: true });
    try {
      const sha = (text: string) => createHash('sha256').update(text).digest('hex');
      expect(snapshot(second.root)).toEqual({
        ...fresh.files,
        'tests/__pycache__': 'dir',
        'tests/__pycache__/test_mod.cpython-311-pytest-9.0.3.pyc': sha('rewritten'),
        'pkg/__pycache__/__init__.cpython-311.pyc': sha('compiled'),
      });
      expect(readFileSync(outside, 'utf8')).toBe('host bytes\n');
      expect(lstatSync(outside).nlink).toBe(1);
      // A copy a container could write in is not kept: its bytecode would run here next.
      second.lentToContainer();
    } finally {
      await second.dispose();
    }
    expect(readdirSync(parent)).toEqual([]);
    const third = await Workspace.create(repo, { parent, reuse: true });
    expect(snapshot(third.root)).toEqual(fresh.files);
    await third.dispose();
  });

  it("is not kept once the agent's code ran in it: bytecode, modes, a FIFO it left go with it (issue 34)", async () => {
    const repo = repository('agent-ran');
    const parent = mkdtempSync(join(scratch, 'tmp-'));
    const fresh = await freshCopy(repo, parent);
    const first = await Workspace.create(repo, { parent, reuse: true });
    first.ranAgentCode();
    // Bytecode whose name and header would pass for the module's, a closed folder, a FIFO.
    writeFileSync(first.path('pkg/__pycache__/__init__.cpython-311.pyc'), 'forged');
    chmodSync(first.path('tests'), 0o311);
    spawnSync('mkfifo', [first.path('pkg/planted')]);
    await first.dispose();
    expect(readdirSync(parent)).toEqual([]);
    const second = await Workspace.create(repo, { parent, reuse: true });
    try {
      expect(snapshot(second.root)).toEqual(fresh.files);
      expect(modes(second.root)).toEqual(fresh.modes);
    } finally {
      await second.dispose();
    }
    // A copy only THM ran in is kept, bytecode and all.
    expect(readdirSync(parent)).toEqual([basename(parkedCopyPath(parent, repo))]);
  });

  it('is not taken when it is open to others, nor kept with --keep-workspace; tenet gc removes it', async () => {
    const repo = repository('private');
    const parent = mkdtempSync(join(scratch, 'tmp-'));
    const parked = parkedCopyPath(parent, repo);
    mkdirSync(join(parked, 'private'), { recursive: true, mode: 0o755 });
    chmodSync(parked, 0o755);
    writeFileSync(join(parked, 'private', 'planted.py'), 'import os\n');
    const workspace = await Workspace.create(repo, { parent, reuse: true });
    expect(existsSync(join(parked, 'private', 'planted.py'))).toBe(true);
    expect(existsSync(workspace.path('planted.py'))).toBe(false);
    await workspace.dispose();
    rmSync(parked, { recursive: true });

    const kept = await Workspace.create(repo, { parent, reuse: true, keep: true });
    await kept.dispose();
    expect(existsSync(parked)).toBe(false);
    expect(existsSync(kept.root)).toBe(true);
    rmSync(kept.root, { recursive: true });

    await (await Workspace.create(repo, { parent, reuse: true })).dispose();
    const { removed } = collectScratch({ tmp: parent });
    expect(removed.map((f) => [f.path, f.kind])).toContainEqual([parked, 'copy kept for the next run']);
    expect(existsSync(parked)).toBe(false);
  });
});
