import { join } from 'node:path';
import { installRoot } from '../engine/assets';
import { thmCommand } from './thm';

/** The built-in example: a stub with tests, in examples/invoicing. */
export const DEMO = {
  repo: () => join(installRoot(), 'examples', 'invoicing'),
  target: 'invoicing/tax.py::tax_for',
};

/** `tenet demo` (what `npm start` runs): THM on the example repository. */
export async function demoCommand(options: { json: boolean }): Promise<number> {
  if (!options.json) process.stderr.write(`tenet demo: ${DEMO.target} in ${DEMO.repo()}\n`);
  return thmCommand({ repo: DEMO.repo(), target: DEMO.target, json: options.json, tests: [] });
}
