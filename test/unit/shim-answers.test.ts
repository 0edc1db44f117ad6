import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { keepShimAnswer, recalledShimAnswer } from '../../source/engine/sandbox/shim-answers';

// pyenv's answer is kept between runs (its shim costs ~0.5 s a start) as long as nothing it
// decides from changed; any other version manager is asked every time.
const dir = realpathSync(mkdtempSync(join(tmpdir(), 'tenet-shim-answers-')));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A pyenv root as pyenv lays it out: shims, libexec/pyenv, a global version file, installed versions. */
function fakePyenv(name: string, withPyenv = true): { root: string; shim: string; interpreter: string } {
  const root = join(dir, name);
  for (const sub of ['shims', 'libexec', 'versions/3.11.7/bin']) mkdirSync(join(root, sub), { recursive: true });
  if (withPyenv) writeFileSync(join(root, 'libexec', 'pyenv'), '#!/bin/sh\n');
  writeFileSync(join(root, 'version'), '3.11.7\n');
  const interpreter = join(root, 'versions', '3.11.7', 'bin', 'python3');
  writeFileSync(interpreter, '#!/bin/sh\n');
  chmodSync(interpreter, 0o755);
  writeFileSync(join(root, 'shims', 'python3'), '#!/bin/sh\n');
  return { root, shim: join(root, 'shims', 'python3'), interpreter };
}

describe("pyenv's answers kept between runs", () => {
  const state = join(dir, 'state');
  const env = { HOME: dir, XDG_STATE_HOME: state, PATH: '/usr/bin:/bin' };

  it('are recalled while nothing pyenv reads changed, and forgotten when something did', () => {
    const { root, shim, interpreter } = fakePyenv('pyenv');
    const repo = join(dir, 'repo');
    mkdirSync(join(repo, 'src'), { recursive: true });
    expect(recalledShimAnswer(shim, repo, env)).toBeUndefined();
    keepShimAnswer(shim, repo, env, interpreter);
    expect(recalledShimAnswer(shim, repo, env)).toBe(interpreter);
    // Kept per version file read, not per folder: another folder without one (a fresh copy of the
    // repository, a temporary folder) gets the same answer.
    expect(recalledShimAnswer(shim, join(repo, 'src'), env)).toBe(interpreter);
    const elsewhere = join(dir, 'elsewhere');
    mkdirSync(elsewhere);
    expect(recalledShimAnswer(shim, elsewhere, env)).toBe(interpreter);

    // `pyenv shell` (PYENV_VERSION) and another PATH: asked again.
    expect(recalledShimAnswer(shim, repo, { ...env, PYENV_VERSION: '3.12.1' })).toBeUndefined();
    expect(recalledShimAnswer(shim, repo, { ...env, PATH: `/opt/bin:${env.PATH}` })).toBeUndefined();
    // A PYENV_DIR that is a file is no folder to find a version file in: nothing recalled, nothing thrown.
    expect(recalledShimAnswer(shim, repo, { ...env, PYENV_DIR: join(root, 'version') })).toBeUndefined();

    // `pyenv local` in the repository: asked again there, and from below it (pyenv reads the same
    // file there); a folder without one keeps the global answer.
    writeFileSync(join(repo, '.python-version'), '3.12.1\n');
    expect(recalledShimAnswer(shim, repo, env)).toBeUndefined();
    expect(recalledShimAnswer(shim, join(repo, 'src'), env)).toBeUndefined();
    expect(recalledShimAnswer(shim, elsewhere, env)).toBe(interpreter);
    // (The interpreter it names, outside `versions`, whose time is part of every answer.)
    const local = join(dir, 'python3.12');
    writeFileSync(local, '');
    keepShimAnswer(shim, repo, env, local);
    expect(recalledShimAnswer(shim, join(repo, 'src'), env)).toBe(local);
    expect(recalledShimAnswer(shim, elsewhere, env)).toBe(interpreter);
    // Edited: asked again.
    writeFileSync(join(repo, '.python-version'), '3.12.2\n');
    expect(recalledShimAnswer(shim, repo, env)).toBeUndefined();
    keepShimAnswer(shim, repo, env, local);
    // A version file in a folder above: it decides where the repository has none, not where it has one.
    writeFileSync(join(dir, '.python-version'), '3.10.0\n');
    expect(recalledShimAnswer(shim, repo, env)).toBe(local);
    expect(recalledShimAnswer(shim, elsewhere, env)).toBeUndefined();
    rmSync(join(repo, '.python-version'));
    expect(recalledShimAnswer(shim, repo, env)).toBeUndefined();
    rmSync(join(dir, '.python-version'));
    expect(recalledShimAnswer(shim, repo, env)).toBe(interpreter);
    rmSync(local);

    // `pyenv global`, and a version installed or removed.
    writeFileSync(join(root, 'version'), '3.12.1\n');
    expect(recalledShimAnswer(shim, repo, env)).toBeUndefined();
    keepShimAnswer(shim, repo, env, interpreter);
    mkdirSync(join(root, 'versions', '3.12.1'));
    const later = new Date(Date.now() + 5000);
    utimesSync(join(root, 'versions'), later, later);
    expect(recalledShimAnswer(shim, repo, env)).toBeUndefined();
    keepShimAnswer(shim, repo, env, interpreter);
    expect(recalledShimAnswer(shim, repo, env)).toBe(interpreter);

    // The interpreter it named is gone.
    rmSync(interpreter);
    expect(recalledShimAnswer(shim, repo, env)).toBeUndefined();
  });

  it('are never kept for a shim that is not pyenv’s, nor recalled from a broken state file', () => {
    const other = fakePyenv('other-manager', false);
    keepShimAnswer(other.shim, dir, env, other.interpreter);
    expect(recalledShimAnswer(other.shim, dir, env)).toBeUndefined();

    const { shim, interpreter } = fakePyenv('pyenv-broken-state');
    const brokenEnv = { ...env, XDG_STATE_HOME: join(dir, 'broken-state') };
    mkdirSync(join(dir, 'broken-state', 'tenet'), { recursive: true });
    writeFileSync(join(dir, 'broken-state', 'tenet', 'shim-answers.json'), '{"half a fi');
    expect(recalledShimAnswer(shim, dir, brokenEnv)).toBeUndefined();
    keepShimAnswer(shim, dir, brokenEnv, interpreter);
    expect(recalledShimAnswer(shim, dir, brokenEnv)).toBe(interpreter);
  });
});
