import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/fixtures';

// Issue 33: THM in every mode against plain pytest on real suites (qa/thm.ts), the fixed sample:
// sympy's printers (a dispatcher), jsonschema (unittest classes with mixins), a src layout with a
// namespace subpackage and a suite under `filterwarnings = error`. Every disagreement is printed.
describe('the differential check of THM, the fixed sample', () => {
  it('every mode agrees with plain pytest and with the others on 14 targets of 4 suites', async () => {
    const child = spawn(
      process.execPath,
      [join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), join(ROOT, 'qa', 'thm.ts')],
      { cwd: ROOT, env: process.env },
    );
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    process.stdout.write(output);
    expect(output).toMatch(/^14 targets \(1[2-4] with failing tests\), 0 with a disagreement · seed 1/m);
    expect(code, output).toBe(0);
  }, 1_800_000);
});
