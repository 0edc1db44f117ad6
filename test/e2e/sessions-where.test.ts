import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli';
import { ROOT } from '../helpers/fixtures';

/** Where sessions live: the user's state folder by default, and per repository on demand. */
const scratch = mkdtempSync(join(tmpdir(), 'tenet-sessions-where-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('a global-style install (npm pack, then npm install -g into a prefix)', () => {
  it('runs the demo and saves its session under the state folder, not in the installation', async () => {
    // The bundle is built (npm test builds it first); packing must not rebuild it under other tests' feet.
    execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', scratch], { cwd: ROOT, stdio: 'ignore' });
    const tarball = readdirSync(scratch).find((name) => name.endsWith('.tgz'))!;
    const prefix = join(scratch, 'prefix');
    execFileSync(
      'npm',
      [
        'install',
        '-g',
        '--prefix',
        prefix,
        join(scratch, tarball),
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        '--ignore-scripts',
      ],
      { stdio: 'ignore' },
    );
    const home = join(scratch, 'home');
    mkdirSync(home);
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '' };
    delete env.XDG_STATE_HOME;
    delete env.TENET_SESSIONS_DIR;
    delete env.XDG_CONFIG_HOME;
    const installed = join(prefix, 'lib', 'node_modules', 'tenet');
    const shippedBefore = readdirSync(join(installed, 'sessions')).sort();
    const out = execFileSync(join(prefix, 'bin', 'tenet'), ['demo', '--json'], { env, encoding: 'utf8' });
    const result = JSON.parse(out.trim().split('\n').at(-1)!);
    expect(result).toMatchObject({ type: 'result', pass: true });
    const sessions = join(home, '.local', 'state', 'tenet', 'sessions');
    expect(existsSync(join(sessions, result.sessionId, 'events.jsonl'))).toBe(true);
    expect(readdirSync(join(installed, 'sessions')).sort()).toEqual(shippedBefore);
    // The shipped demo session is still found by name, and XDG_STATE_HOME moves the folder.
    expect(execFileSync(join(prefix, 'bin', 'tenet'), ['show', 'demo'], { env, encoding: 'utf8' })).toContain(
      'invoicing/tax.py::tax_for',
    );
    const state = join(scratch, 'state');
    const listed = execFileSync(join(prefix, 'bin', 'tenet'), ['sessions', '--json'], {
      env: { ...env, XDG_STATE_HOME: state },
      encoding: 'utf8',
    });
    expect(JSON.parse(listed)).toEqual([]);
  }, 240_000);
});

describe('tenet sessions --repo', () => {
  it('lists the sessions of one repository, however its path is spelled', async () => {
    const sessions = join(scratch, 'by-repo');
    const [first] = readFileSync(join(ROOT, 'sessions', 'demo', 'events.jsonl'), 'utf8').split('\n');
    const repos = { a: join(scratch, 'repo-a'), b: join(scratch, 'repo-b') };
    for (const [name, repo] of Object.entries(repos)) {
      mkdirSync(repo);
      mkdirSync(join(sessions, `s-${name}`), { recursive: true });
      const start = { ...JSON.parse(first!), sessionId: `s-${name}`, repo };
      writeFileSync(join(sessions, `s-${name}`, 'events.jsonl'), `${JSON.stringify(start)}\n`);
    }
    symlinkSync(repos.a, join(scratch, 'link-to-a'));
    for (const spelling of [repos.a, join(scratch, 'link-to-a'), `${repos.a}/.`]) {
      const listed = await runCli(['sessions', '--repo', spelling, '--json', '--sessions-dir', sessions]);
      expect(JSON.parse(listed.stdout).map((s: { id: string }) => s.id)).toEqual(['s-a']);
    }
  });
});
