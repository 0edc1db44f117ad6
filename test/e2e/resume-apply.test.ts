import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSession } from '../../source/engine/session/load';
import { finished, runCli, startCli, waitFor } from '../helpers/cli';
import { propertyShop, SETTER_CODE, SETTER_LINE, slowScript } from '../helpers/property-shop';

// `run --apply` interrupted and resumed applies its patch: the run's --apply is recorded with the
// session's settings and resume honours it; resume also takes --apply itself.

const scratch = mkdtempSync(join(tmpdir(), 'tenet-resume-apply-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const env = (dir: string) => ({
  TENET_SESSIONS_DIR: dir,
  OPENAI_API_KEY: '',
  ANTHROPIC_API_KEY: '',
  XDG_CONFIG_HOME: '/nonexistent',
});
/** A passing setter that differs from the checkout's, so that there is a patch to apply. */
const CODE = SETTER_CODE.replace('percent out of range', 'discount must be 0..100');
const script = join(scratch, 'slow.json');
writeFileSync(script, JSON.stringify(slowScript(CODE)));

/** Starts a run, stops it with SIGINT while the model's shell command runs; the session's id. */
async function interruptedRun(repo: string, dir: string, extra: string[]): Promise<string> {
  const args = [
    'run',
    '--repo',
    repo,
    '--target',
    `shop/cart.py::Cart.discount@${SETTER_LINE}`,
    '--blank',
    '--provider',
    'scripted',
    '--script',
    script,
    '--json',
    ...extra,
  ];
  const child = startCli(args, { env: env(dir) });
  const ended = finished(child);
  await waitFor(() => child.output.stdout.includes('"name":"run_debugger_cmd"'), 90_000, 'the shell command');
  child.kill('SIGINT');
  expect((await ended).code).toBe(130);
  return JSON.parse(child.output.stdout.split('\n')[0]!).sessionId as string;
}

const decision = (dir: string, id: string) => loadSession(dir, id).events.find((e) => e.type === 'patch.decision');

describe('resuming a run that was to apply its patch', () => {
  it.each([
    ["as the run's --apply asked", 'recorded', ['--apply'], []],
    ['when the resume asks with --apply (the run did not)', 'given', [], ['--apply']],
  ])(
    'applies it %s',
    async (_how, folder, runFlags, resumeFlags) => {
      const repo = propertyShop();
      const dir = join(scratch, folder);
      try {
        const id = await interruptedRun(repo.dir, dir, runFlags);
        const resumed = await runCli(['resume', id, '--headless', '--approve', 'auto', ...resumeFlags], {
          env: env(dir),
        });
        expect(resumed.code, resumed.stderr).toBe(0);
        expect(decision(dir, id)).toMatchObject({ decision: 'accept', applied: true });
        expect(readFileSync(join(repo.dir, 'shop', 'cart.py'), 'utf8')).toContain('discount must be 0..100');
      } finally {
        repo.cleanup();
      }
    },
    180_000,
  );
});
