import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/fixtures';

describe("the session page's script is type-checked", () => {
  it("with the DOM's types, against the event union (the root tsconfig.json leaves it out: it is browser code)", () => {
    const tsc = join(ROOT, 'node_modules', '.bin', 'tsc');
    const run = spawnSync(tsc, ['--noEmit', '-p', join('source', 'engine', 'session', 'page')], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(`${run.stdout}${run.stderr}`).toBe('');
    expect(run.status).toBe(0);
  });
});
