// `npm start`: the demo, built first only when dist is stale (see build-stamp.mjs). The stamp is
// checked and the CLI then runs in this one process: a second `node` would add its own start-up
// (~60 ms) to a first frame that npm already delays.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { distIsCurrent } from './build-stamp.mjs';

const root = process.cwd();
if (!distIsCurrent(root)) {
  const build = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const cli = join(root, 'dist', 'tenet.js');
// The CLI reads its arguments from argv: it sees `tenet demo …` with what was passed to npm start.
process.argv = [process.argv[0], cli, 'demo', ...process.argv.slice(2)];
await import(pathToFileURL(cli).href);
