// Whether dist was built from the sources as they are now: `npm start` then starts at once
// instead of rebuilding (2 s) on every start. The stamp is a hash of every input's path, size and
// modification time, written into dist after a build; any edit, added or removed file changes it.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** What a build reads: the sources, the build script, and the dependencies as installed. */
const INPUTS = ['source', 'scripts/build.mjs', 'package.json', 'package-lock.json', 'tsconfig.json'];
const STAMP = join('dist', '.build-stamp');
/** What a build writes and `npm start` runs: without them no stamp makes dist current. */
const OUTPUTS = [join('dist', 'tenet.js'), join('dist', 'index-worker.js'), join('dist', 'session-page.js')];

function* files(path) {
  if (!existsSync(path)) return;
  if (!statSync(path).isDirectory()) {
    yield path;
    return;
  }
  // Python's bytecode of tenet's helpers (written as they run, see helper-bytecode.ts) is no input.
  for (const entry of readdirSync(path).sort()) if (entry !== '__pycache__') yield* files(join(path, entry));
}

/** The inputs' fingerprint under `root`, as a hex string. */
export function sourceStamp(root) {
  const hash = createHash('sha256');
  for (const input of INPUTS) {
    for (const file of files(join(root, input))) {
      const stat = statSync(file);
      hash.update(`${file.slice(root.length)}\0${stat.size}\0${stat.mtimeMs}\n`);
    }
  }
  return hash.digest('hex');
}

/** True when dist under `root` holds a build of the inputs as they are now. */
export function distIsCurrent(root) {
  if (!OUTPUTS.every((file) => existsSync(join(root, file)))) return false;
  try {
    return readFileSync(join(root, STAMP), 'utf8').trim() === sourceStamp(root);
  } catch {
    return false;
  }
}

/** After a build: the stamp of what it was built from. */
export function writeStamp(root, stamp) {
  writeFileSync(join(root, STAMP), `${stamp}\n`);
}
