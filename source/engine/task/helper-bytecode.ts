import { spawnSync } from 'node:child_process';
import { accessSync, constants, type Dirent, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pythonHelpersDir } from '../assets';

/**
 * tenet's Python helpers (source/python) compiled for an interpreter, once. Every pytest that tenet
 * starts imports them, and each start compiled them from their source again (about 25 ms of a
 * small run's 0.35 s): the confined sandbox shows their folder read-only, and where
 * PYTHONDONTWRITEBYTECODE is set Python writes no bytecode anywhere. When a helper has no bytecode
 * for this interpreter (`tag`, as `cpython-311`), or an older one, the interpreter compiles them
 * into their `__pycache__` folders, isolated (`-I -S`: no site, no .pth file, nothing of the
 * repository runs). Python itself checks each file's bytecode against its source. A folder tenet
 * cannot write (an install of root's) stays as it is.
 */
export function compileHelpers(python: string, tag: string, dir = pythonHelpersDir()): void {
  if (!stale(dir, tag)) return;
  try {
    accessSync(dir, constants.W_OK);
  } catch {
    return;
  }
  spawnSync(python, ['-I', '-S', '-m', 'compileall', '-q', dir], { stdio: 'ignore', timeout: 60_000 });
}

/** Whether a module of `dir` (at any depth) has no bytecode for `tag` newer than its source. */
function stale(dir: string, tag: string): boolean {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return false;
  }
  for (const entry of entries) {
    if (entry.isDirectory() && entry.name !== '__pycache__') {
      if (stale(join(dir, entry.name), tag)) return true;
      continue;
    }
    if (!entry.isFile() || !entry.name.endsWith('.py')) continue;
    const compiled = statSync(join(dir, '__pycache__', `${entry.name.slice(0, -3)}.${tag}.pyc`), {
      throwIfNoEntry: false,
    });
    if (!compiled || compiled.mtimeMs < statSync(join(dir, entry.name)).mtimeMs) return true;
  }
  return false;
}
