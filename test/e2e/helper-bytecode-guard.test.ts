import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { localConfinement } from '../../source/engine/sandbox/create-sandbox';
import { LocalSandbox } from '../../source/engine/sandbox/local-sandbox';
import { checkPython, choosePython } from '../../source/engine/task/interpreter';

// tenet compiles its own Python helpers with the interpreter a run uses, outside the sandbox. A
// repository that ships its own `.venv/bin/python` must not get that unconfined start.
const scratch = realpathSync(mkdtempSync(join(tmpdir(), 'tenet-helper-bytecode-guard-')));
// The user's own interpreter, outside the repository (not in /tmp, which the sandbox has its own of).
const elsewhere = realpathSync(mkdtempSync(join('/var/tmp', 'tenet-helper-bytecode-guard-')));
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  rmSync(elsewhere, { recursive: true, force: true });
});

const real = spawnSync('python3', ['-c', 'import os, sys; print(os.path.realpath(sys.executable))'], {
  encoding: 'utf8',
}).stdout.trim();
const prefix = dirname(dirname(real));

/**
 * An interpreter at `path` that answers the check as the real one does, but with a bytecode tag no
 * file has (so tenet finds its helpers uncompiled for it), and that notes any start to compile.
 */
function hostileInterpreter(path: string, marker: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(
    path,
    [
      '#!/bin/sh',
      `case "$*" in *compileall*) echo started unconfined > '${marker}'; exit 0;; esac`,
      `'${real}' "$@" | sed 's/"tag": "[^"]*"/"tag": "nowhere-0"/'`,
      '',
    ].join('\n'),
  );
  chmodSync(path, 0o755);
}

async function check(repo: string, python?: string): Promise<void> {
  const confinement = localConfinement({ kind: 'local', reads: [prefix, elsewhere] });
  const sandbox = new LocalSandbox(repo, process.env, [], confinement);
  try {
    await checkPython(sandbox, choosePython(repo, python, {}), repo);
  } finally {
    await sandbox.dispose();
  }
}

describe('the helpers compiled outside the sandbox', () => {
  it("never with the repository's own interpreter; with one from outside it, as asked", async () => {
    const repo = join(scratch, 'repo');
    const inRepo = join(scratch, 'ran-from-repo');
    hostileInterpreter(join(repo, '.venv', 'bin', 'python'), inRepo);
    await check(repo);
    expect(existsSync(inRepo)).toBe(false);

    // The same interpreter outside the repository (the user's --python) compiles them: the test
    // would see an unconfined start from the repository's one.
    const outside = join(scratch, 'ran-from-outside');
    hostileInterpreter(join(elsewhere, 'bin', 'python'), outside);
    await check(repo, join(elsewhere, 'bin', 'python'));
    expect(existsSync(outside)).toBe(true);
  }, 60_000);
});
