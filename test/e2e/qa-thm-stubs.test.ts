import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/fixtures';

// Issue 45, item 0: the differential check's stub-mode suite (qa/suites.ts `stubs`, the stubgeo
// fixture): other stubs in the same file, the same class and another file, a helper with a bug of
// its own, a stubbed __repr__ that reports of failed assertions call. Every function is a target;
// stub mode must tell the target's failing tests from the others exactly as plain pytest does.
describe('the differential check of THM, the stub-mode suite', () => {
  it("stub mode's split of the failing tests agrees with plain pytest on every function of the suite", async () => {
    const child = spawn(
      process.execPath,
      [
        join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'),
        join(ROOT, 'qa', 'thm.ts'),
        '--suite',
        'stubs',
        '--targets',
        '8',
        '--seed',
        '1',
        '--modes',
        'lanes,stub',
      ],
      { cwd: ROOT, env: process.env },
    );
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    process.stdout.write(output);
    expect(output).toContain('geo/point.py::Point.__repr__');
    expect(output).toMatch(/^8 targets \(8 with failing tests\), 0 with a disagreement · seed 1/m);
    expect(code, output).toBe(0);
  }, 600_000);
});
