import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
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

  it("not through a link in the repository's .venv, whose pyvenv.cfg would choose the stdlib it starts with", async () => {
    // A .venv as `python -m venv` makes it (bin/python a link to the real interpreter), but its
    // pyvenv.cfg's `home` points at a stdlib of the repository's: the real one, file by file, with
    // a compileall of its own, and a json that reports a bytecode tag no file has (so tenet finds
    // its helpers uncompiled for it and compiles them).
    const repo = join(scratch, 'venv-repo');
    const marker = join(scratch, 'ran-repository-stdlib');
    const stdlib = join(prefix, 'lib', readdirSync(join(prefix, 'lib')).find((name) => /^python3\.\d+$/.test(name))!);
    const fake = join(repo, 'home', 'lib', stdlib.split('/').at(-1)!);
    mkdirSync(join(repo, '.venv', 'bin'), { recursive: true });
    mkdirSync(join(repo, 'home', 'bin'), { recursive: true });
    mkdirSync(fake, { recursive: true });
    symlinkSync(real, join(repo, '.venv', 'bin', 'python'));
    writeFileSync(
      join(repo, '.venv', 'pyvenv.cfg'),
      `home = ${join(repo, 'home', 'bin')}\ninclude-system-site-packages = true\n`,
    );
    for (const name of readdirSync(stdlib))
      if (name !== 'compileall.py' && name !== 'json') symlinkSync(join(stdlib, name), join(fake, name));
    writeFileSync(join(fake, 'compileall.py'), `open(${JSON.stringify(marker)}, "w").write("ran")\n`);
    mkdirSync(join(fake, 'json'));
    writeFileSync(
      join(fake, 'json', '__init__.py'),
      [
        'import importlib.util, sys',
        `_spec = importlib.util.spec_from_file_location("json", ${JSON.stringify(join(stdlib, 'json', '__init__.py'))}, submodule_search_locations=[${JSON.stringify(join(stdlib, 'json'))}])`,
        '_real = importlib.util.module_from_spec(_spec)',
        'sys.modules["json"] = _real',
        '_spec.loader.exec_module(_real)',
        '_dumps = _real.dumps',
        'def _tagged(obj, *args, **kwargs):',
        '    if isinstance(obj, dict) and "tag" in obj:',
        '        obj = dict(obj, tag="nowhere-0")',
        '    return _dumps(obj, *args, **kwargs)',
        '_real.dumps = _tagged',
        '',
      ].join('\n'),
    );
    await check(repo);
    expect(existsSync(marker)).toBe(false);
  }, 60_000);
});
