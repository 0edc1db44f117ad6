import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../source/engine/session/catalog';
import { loadSession } from '../../source/engine/session/load';
import { finished, runCli, startCli, waitFor } from '../helpers/cli';
import { propertyShop, SETTER_CODE, SETTER_LINE } from '../helpers/property-shop';

// A target named with @LINE (one of a property's getter and setter) is recorded with its line, so
// that resume and rerun pick the same definition again; a rerun or resume that fails before it
// starts leaves no empty session behind, nor turns an interrupted session into an error.

const scratch = mkdtempSync(join(tmpdir(), 'tenet-line-target-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const env = (dir: string) => ({
  TENET_SESSIONS_DIR: dir,
  OPENAI_API_KEY: '',
  ANTHROPIC_API_KEY: '',
  XDG_CONFIG_HOME: '/nonexistent',
});
const RECORDED = `shop/cart.py::Cart.discount@${SETTER_LINE}`;

function script(name: string, turns: unknown[]): string {
  const file = join(scratch, name);
  writeFileSync(file, JSON.stringify({ turns }));
  return file;
}
const submit = { say: 'Setting it.', calls: [{ name: 'submit_implementation', arguments: { code: SETTER_CODE } }] };
/** A line inside the setter's body: any line of the definition picks it. */
const runArgs = (repo: string, scriptFile: string) => [
  'run',
  '--repo',
  repo,
  '--target',
  `shop/cart.py::Cart.discount@${SETTER_LINE + 2}`,
  '--blank',
  '--provider',
  'scripted',
  '--script',
  scriptFile,
  '--json',
];

describe('a target named with @LINE', () => {
  it('is recorded with its line (THM report too), and rerun picks the same definition; a rerun that cannot start saves nothing', async () => {
    const repo = propertyShop();
    const dir = join(scratch, 'rerun');
    try {
      const run = await runCli(runArgs(repo.dir, script('one.json', [submit])), { env: env(dir) });
      expect(run.code, run.stderr).toBe(0);
      const events = run.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(events[0]).toMatchObject({ type: 'session.start', target: RECORDED });
      expect(events.find((e) => e.type === 'thm.report').report.target).toBe(RECORDED);
      const id = events[0].sessionId as string;

      const rerun = await runCli(['rerun', id], { env: env(dir) });
      expect(rerun.stdout).toContain('No divergence');
      expect(rerun.code, rerun.stdout).toBe(0);

      // The property gone from the checkout: the rerun stops before its start and saves nothing.
      const cart = join(repo.dir, 'shop', 'cart.py');
      writeFileSync(cart, readFileSync(cart, 'utf8').replaceAll('def discount(', 'def rebate('));
      const before = new Catalog(dir).list().map((s) => s.id);
      const failed = await runCli(['rerun', id], { env: env(dir) });
      expect(failed.code).toBe(1);
      expect(failed.stdout).toContain('the rerun stopped before it started: not saved');
      expect(new Catalog(dir).list().map((s) => s.id)).toEqual(before);
      // Nor does a run whose target is not there.
      const bad = await runCli(runArgs(repo.dir, script('one.json', [submit])), { env: env(dir) });
      expect(bad.code).toBe(2);
      expect(new Catalog(dir).list().map((s) => s.id)).toEqual(before);
    } finally {
      repo.cleanup();
    }
  }, 180_000);

  it('resumes after SIGTERM; a resume that cannot go on leaves the session interrupted', async () => {
    const repo = propertyShop();
    const dir = join(scratch, 'resume');
    try {
      // The shell command gives SIGTERM time to land mid-run.
      const slow = script('slow.json', [
        { say: 'Waiting.', calls: [{ name: 'run_debugger_cmd', arguments: { cmd: 'sleep 5' } }] },
        submit,
      ]);
      const child = startCli(runArgs(repo.dir, slow), { env: env(dir) });
      const ended = finished(child);
      await waitFor(() => child.output.stdout.includes('"name":"run_debugger_cmd"'), 90_000, 'the shell command');
      child.kill('SIGTERM');
      expect((await ended).code).toBe(143);
      const id = JSON.parse(child.output.stdout.split('\n')[0]!).sessionId as string;
      const status = () => new Catalog(dir).list().find((s) => s.id === id)?.status;
      expect(status()).toBe('interrupted');

      // The target's file changed: resume refuses, and the session stays as it was, resumable.
      const cart = join(repo.dir, 'shop', 'cart.py');
      const original = readFileSync(cart, 'utf8');
      writeFileSync(cart, `${original}\n# changed\n`);
      const events = loadSession(dir, id).events.length;
      const refused = await runCli(['resume', id, '--headless', '--approve', 'auto'], { env: env(dir) });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('changed in the checkout');
      expect(status()).toBe('interrupted');
      expect(loadSession(dir, id).events.length).toBe(events);

      writeFileSync(cart, original);
      const resumed = await runCli(['resume', id, '--headless', '--approve', 'auto'], { env: env(dir) });
      expect(resumed.code, resumed.stderr + resumed.stdout).toBe(0);
      expect(resumed.stdout).toContain('PASS');
      expect(status()).toBe('passed');
    } finally {
      repo.cleanup();
    }
  }, 240_000);
});
