import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compileHelpers } from '../../source/engine/task/helper-bytecode';

// Every pytest tenet starts imports its helpers; without bytecode each start compiled them again.
const dir = mkdtempSync(join(tmpdir(), 'tenet-helper-bytecode-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const tag = spawnSync('python3', ['-c', 'import sys; print(sys.implementation.cache_tag)'], {
  encoding: 'utf8',
}).stdout.trim();
const pyc = (...parts: string[]) => statSync(join(dir, ...parts), { throwIfNoEntry: false });

describe('tenet’s Python helpers compiled for the interpreter', () => {
  mkdirSync(join(dir, '_pkg'));
  writeFileSync(join(dir, '_top.py'), 'X = 1\n');
  writeFileSync(join(dir, '_pkg', '__init__.py'), 'from . import part\n');
  writeFileSync(join(dir, '_pkg', 'part.py'), 'Y = 2\n');

  it('compiles every module, at any depth, into its __pycache__, with PYTHONDONTWRITEBYTECODE set', () => {
    const was = process.env.PYTHONDONTWRITEBYTECODE;
    process.env.PYTHONDONTWRITEBYTECODE = '1';
    try {
      compileHelpers('python3', tag, dir);
    } finally {
      if (was === undefined) delete process.env.PYTHONDONTWRITEBYTECODE;
      else process.env.PYTHONDONTWRITEBYTECODE = was;
    }
    expect(pyc('__pycache__', `_top.${tag}.pyc`)).toBeDefined();
    expect(pyc('_pkg', '__pycache__', `__init__.${tag}.pyc`)).toBeDefined();
    expect(pyc('_pkg', '__pycache__', `part.${tag}.pyc`)).toBeDefined();
  });

  it('leaves bytecode newer than its source alone, and compiles a source edited since again', () => {
    const before = pyc('_pkg', '__pycache__', `part.${tag}.pyc`)!.mtimeMs;
    compileHelpers('python3', tag, dir);
    expect(pyc('_pkg', '__pycache__', `part.${tag}.pyc`)!.mtimeMs).toBe(before);
    writeFileSync(join(dir, '_pkg', 'part.py'), 'Y = 3\n');
    const later = new Date(Date.now() + 5_000);
    utimesSync(join(dir, '_pkg', 'part.py'), later, later);
    compileHelpers('python3', tag, dir);
    expect(pyc('_pkg', '__pycache__', `part.${tag}.pyc`)!.mtimeMs).toBeGreaterThan(before);
  });
});
