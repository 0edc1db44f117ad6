import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The tenet installation's root (the folder with its package.json). Found by walking up from this
 * module, so it works from the source tree (tsx, vitest) and from the bundle in dist/.
 */
export function installRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'source'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('tenet: cannot find its installation root (package.json)');
    dir = parent;
  }
}

/** Folder of the Python helpers that run inside the target's interpreter. */
export function pythonHelpersDir(): string {
  return join(installRoot(), 'source', 'python');
}

export function promptsDir(): string {
  return join(installRoot(), 'prompts');
}
