import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli';
import { FIXTURES } from '../helpers/fixtures';

/**
 * The confined sandbox shows the interpreter's folders and nothing beside them (issue 43): a
 * virtual environment outside /tmp whose `.pth` names a folder elsewhere (an editable install) is
 * shown with that folder, while a file next to them is not; `--read` adds a path on purpose, and
 * a path that is not there, or a repository's own config asking for one, is refused.
 */
const world = mkdtempSync('/var/tmp/tenet-interpreter-view-');
afterAll(() => rmSync(world, { recursive: true, force: true }));

const venv = join(world, 'venv');
const extra = join(world, 'extra');
const repo = join(world, 'shop');
execFileSync('python3', ['-m', 'venv', '--without-pip', '--system-site-packages', venv]);
mkdirSync(extra);
writeFileSync(join(extra, 'extra_mod.py'), 'VALUE = 42\n');
writeFileSync(join(world, 'beside.txt'), 'not for the sandbox\n');
const site = join(venv, 'lib', readdirSync(join(venv, 'lib'))[0]!, 'site-packages');
writeFileSync(join(site, 'extra.pth'), `${extra}\n`);
cpSync(join(FIXTURES, 'shop'), repo, { recursive: true });

const shell = (cmd: string, more: string[] = []) =>
  runCli([
    'tool',
    'run_debugger_cmd',
    '--repo',
    repo,
    '--target',
    'shop/cart.py::Cart.total',
    '--python',
    join(venv, 'bin', 'python'),
    '--arg',
    `cmd=${cmd}`,
    ...more,
  ]);

describe("the interpreter's folders, shown and nothing beside them", () => {
  it('a .pth folder outside the environment is shown; a file beside it is not', async () => {
    const result = await shell(
      `python -c "import extra_mod, sys; print('value', extra_mod.VALUE); print(sys.prefix)"; cat ${join(world, 'beside.txt')}`,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('value 42');
    expect(result.stdout).toContain(venv);
    expect(result.stdout).toMatch(/beside\.txt: No such file or directory/);
  }, 120_000);

  it('--read shows a path read-only', async () => {
    const result = await shell(`cat ${join(world, 'beside.txt')}; echo more >> ${join(world, 'beside.txt')}`, [
      '--read',
      join(world, 'beside.txt'),
    ]);
    expect(result.stdout).toContain('not for the sandbox');
    expect(result.stdout).toMatch(/Read-only file system/);
  }, 120_000);

  it('refuses a --read path that is not there, and readPaths in a repository config', async () => {
    const missing = await shell('true', ['--read', join(world, 'nowhere')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`--read ${join(world, 'nowhere')}: there is no such file or folder`);
    const hostile = join(world, 'hostile');
    cpSync(repo, hostile, { recursive: true });
    writeFileSync(join(hostile, '.tenet.json'), JSON.stringify({ readPaths: ['/root/.ssh'] }));
    const refused = await runCli(['thm', '--repo', hostile, '--target', 'shop/cart.py::Cart.total', '--blank']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('a repository cannot choose what of this machine the sandbox shows');
  }, 120_000);
});

describe('an interpreter that needs what the sandbox does not show', () => {
  it('fails its check with the path to show, and runs once it is shown with --read', async () => {
    // A wrapper in one folder that runs an interpreter from another: only the wrapper's is shown.
    const elsewhere = join(world, 'elsewhere');
    const wrapper = join(world, 'wrapper', 'bin', 'python');
    mkdirSync(elsewhere);
    mkdirSync(join(world, 'wrapper', 'bin'), { recursive: true });
    execFileSync('ln', [
      '-s',
      execFileSync('python3', ['-c', 'import sys; print(sys.executable)']).toString().trim(),
      join(elsewhere, 'python'),
    ]);
    writeFileSync(wrapper, `#!/bin/sh\nexec ${join(elsewhere, 'python')} "$@"\n`, { mode: 0o755 });
    const args = ['thm', '--repo', repo, '--target', 'shop/cart.py::Cart.total', '--blank', '--python', wrapper];
    const refused = await runCli(args);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('could not start in the confined sandbox');
    expect(refused.stderr).toContain(`show ${elsewhere} to the sandbox with --read ${elsewhere}`);
    const shown = await runCli([...args, '--read', elsewhere]);
    expect(shown.code, shown.stderr).toBe(0);
  }, 120_000);
});
