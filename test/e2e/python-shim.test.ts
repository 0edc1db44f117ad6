import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalSandbox } from '../../source/engine/sandbox/local-sandbox';
import { checkPython } from '../../source/engine/task/interpreter';

const real = spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).stdout.trim();
const dir = realpathSync(mkdtempSync(join(tmpdir(), 'tenet-shim-')));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A version manager's shim, as pyenv's: a script in a `shims` folder that notes where it was asked
 * from and which secret it was given, if any.
 */
function fakeShim(): { path: string; asked: () => string[] } {
  const shims = join(dir, 'shims');
  const log = join(dir, 'asked.log');
  mkdirSync(shims, { recursive: true });
  writeFileSync(
    join(shims, 'python3'),
    `#!/bin/sh\necho "$PWD\${OPENAI_API_KEY:+ with a key}" >> '${log}'\nexec '${real}' "$@"\n`,
  );
  chmodSync(join(shims, 'python3'), 0o755);
  return { path: `${shims}:${process.env.PATH}`, asked: () => readFileSync(log, 'utf8').trim().split('\n') };
}

describe('a python3 that is a version manager shim', () => {
  it('is asked once, from the repository, without secrets, and everything then runs the interpreter behind it', async () => {
    const shim = fakeShim();
    const repo = join(dir, 'repo');
    const scratch = join(dir, 'scratch');
    mkdirSync(repo);
    mkdirSync(scratch);
    // tenet's own environment holds a key; the sandbox's, scrubbed, does not.
    process.env.OPENAI_API_KEY = 'sk-not-for-the-shim';
    const sandbox = new LocalSandbox(scratch, { ...process.env, PATH: shim.path });
    try {
      const info = await checkPython(sandbox, { executable: 'python3', origin: 'the default' }, repo);
      expect(info.asked).toBe('python3');
      expect(info.executable).toBe(real);
      // The launcher that every process starts under took the same answer: no second lookup.
      const ran = await sandbox.run([info.executable, '-c', 'print(40 + 2)']);
      expect(ran.stdout.trim()).toBe('42');
      expect(shim.asked()).toEqual([repo]);
    } finally {
      delete process.env.OPENAI_API_KEY;
      await sandbox.dispose();
    }
  });
});
