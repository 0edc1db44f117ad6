import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalSandbox } from '../../source/engine/sandbox/local-sandbox';
import type { ProcessRunOptions, CompletedProcess } from '../../source/engine/sandbox/sandbox';
import { checkPython } from '../../source/engine/task/interpreter';

// Issue 17: the interpreter check (a Python start before every run's first test) is kept between
// runs while the interpreter and the folders its packages are in are as they were.
const dir = realpathSync(mkdtempSync(join(tmpdir(), 'tenet-check-kept-')));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A sandbox that counts the interpreter checks it runs. */
class CountingSandbox extends LocalSandbox {
  checks = 0;
  override run(argv: string[], options?: ProcessRunOptions): Promise<CompletedProcess> {
    if (argv[1] === '-c' && argv[2]?.includes('pytestError')) this.checks++;
    return super.run(argv, options);
  }
}

describe('the interpreter check, kept between runs', () => {
  it('runs once while nothing changed, and again when a package is installed or PYTHONPATH changes', async () => {
    // A virtual environment that sees the system's pytest.
    const venv = join(dir, 'venv');
    const made = spawnSync('python3', ['-m', 'venv', '--system-site-packages', '--without-pip', venv], {
      encoding: 'utf8',
    });
    expect(made.status, made.stderr).toBe(0);
    const python = join(venv, 'bin', 'python');
    const sitePackages = join(venv, 'lib', readdirSync(join(venv, 'lib'))[0]!, 'site-packages');
    const env: NodeJS.ProcessEnv = { ...process.env, XDG_STATE_HOME: join(dir, 'state') };
    delete env.PYTHONPATH;
    const check = async (extra: NodeJS.ProcessEnv = {}) => {
      const sandbox = new CountingSandbox(dir, { ...env, ...extra });
      try {
        const info = await checkPython(sandbox, { executable: python, origin: '--python' });
        return { info, ran: sandbox.checks };
      } finally {
        await sandbox.dispose();
      }
    };
    const first = await check();
    expect(first.ran).toBe(1);
    expect(first.info.pytestVersion).toMatch(/^\d+\./);
    const second = await check();
    expect(second.ran).toBe(0);
    expect(second.info).toEqual(first.info);

    // A package installed into the environment.
    mkdirSync(join(sitePackages, 'newpkg-1.0.dist-info'));
    expect((await check()).ran).toBe(1);
    expect((await check()).ran).toBe(0);
    // Another PYTHONPATH.
    expect((await check({ PYTHONPATH: dir })).ran).toBe(1);
  }, 60_000);
});
