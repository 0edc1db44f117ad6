// `npm run picture`: the README's picture of a session, re-made from the shipped demo session.
// It exports the session as an asciinema cast with the built CLI (`tenet export demo --format cast`), plays
// the cast into a headless terminal and writes the first frame that shows the text asked for as SVG.
//
//   npm run picture [-- --session demo] [--frame-with '(Pdb) q'] [--cols 100] [--rows 30] [--out docs/session.svg]
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { castFrameSvg } from './cast-svg';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({
  options: {
    session: { type: 'string', default: 'demo' },
    // The first refinement attempt, the agent in pdb: the moment that shows what tenet is for.
    'frame-with': { type: 'string', default: '(Pdb) q' },
    cols: { type: 'string', default: '100' },
    rows: { type: 'string', default: '30' },
    out: { type: 'string', default: join(root, 'docs', 'session.svg') },
  },
});

/** This environment with colours on: the picture shows the TUI as a colour terminal does. */
function colourOn(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.NO_COLOR;
  return env;
}

const exported = spawnSync(
  process.execPath,
  [
    join(root, 'dist', 'tenet.js'),
    'export',
    values.session,
    '--format',
    'cast',
    '--cols',
    values.cols,
    '--rows',
    values.rows,
  ],
  { cwd: root, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, env: colourOn() },
);
if (exported.status !== 0) {
  process.stderr.write(exported.stderr || `tenet export exited ${exported.status}\n`);
  process.exit(1);
}
const svg = await castFrameSvg(
  exported.stdout,
  values['frame-with'],
  `tenet session ${values.session}: the first frame that shows ${values['frame-with']}`,
);
writeFileSync(values.out, svg);
process.stdout.write(`wrote ${relative(process.cwd(), values.out)} (${svg.length.toLocaleString('en')} bytes)\n`);
