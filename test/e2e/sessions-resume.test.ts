import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../source/engine/events';
import { Catalog } from '../../source/engine/session/catalog';
import { foldEvents } from '../../source/engine/session/fold';
import { loadSession } from '../../source/engine/session/load';
import { runCli } from '../helpers/cli';
import { copyDemoSession } from '../helpers/demo-session';
import { ROOT } from '../helpers/fixtures';
import { scratch } from '../helpers/sessions-scratch';

// Resume and rerun of a demo session cut short: from where the work was, and after its patch was
// applied. The sessions are copies of the demo the global setup recorded.
describe('resume continues where the work was', () => {
  const dir = join(scratch, 'continue');
  const env = { TENET_SESSIONS_DIR: dir, OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', XDG_CONFIG_HOME: '/nonexistent' };

  /** A copy of the demo's session (the demo script on a copy of the example), its log cut after the line `cut` picks: the session's id. */
  function cutSession(cut: (events: EngineEvent[]) => number): string {
    const id = copyDemoSession(dir);
    const file = join(dir, id, 'events.jsonl');
    const lines = readFileSync(file, 'utf8').split('\n');
    const at = cut(loadSession(dir, id).events as EngineEvent[]);
    expect(at).toBeGreaterThan(0);
    writeFileSync(file, `${lines.slice(0, at + 1).join('\n')}\n`);
    return id;
  }

  /** The steps a resume took, from its --json events. */
  async function resumeSteps(id: string): Promise<{ steps: string[]; events: EngineEvent[] }> {
    const resumed = await runCli(['resume', id, '--json'], { env });
    expect(resumed.code, resumed.stderr).toBe(0);
    const events = resumed.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as EngineEvent);
    const steps = events.flatMap((e) => {
      if (e.type === 'agent.phase')
        return [`${e.phase}${e.attempt ? ` ${e.attempt}` : ''}${e.stage ? ` ${e.stage}` : ''}`];
      if (e.type === 'tests.run') return [`${e.purpose} run ${e.passed}/${e.total}`];
      if (e.type === 'model.request' || e.type === 'submission') return [e.type];
      return [];
    });
    return { steps, events };
  }

  it('killed after a submission and before its validation: resume validates the recorded submission and goes on into RRW', async () => {
    // As if killed right after the first submission was recorded (the demo's has a bug).
    const id = cutSession((events) => events.findIndex((e) => e.type === 'submission'));
    expect(foldEvents(loadSession(dir, id).events).submissions).toHaveLength(1);
    const { steps, events } = await resumeSteps(id);
    // The recorded submission is validated before any model call, then the workflow goes on.
    expect(steps.slice(0, 4)).toEqual([
      'validate',
      'validate run 2/3',
      'rrw 1 failure-identification',
      'model.request',
    ]);
    expect(steps).not.toContain('pregen');
    expect(events.at(-1)).toMatchObject({ type: 'result', pass: true, rounds: { pregen: 3, rrwAttempts: 1 } });
  }, 120_000);

  it('killed after the answer that ends failure identification: resume goes on with context review', async () => {
    const id = cutSession((events) => {
      const stage = events.findIndex((e) => e.type === 'agent.phase' && e.stage === 'failure-identification');
      return events.findIndex((e, i) => i > stage && e.type === 'model.response' && !e.toolCalls.length);
    });
    const { steps, events } = await resumeSteps(id);
    expect(steps.slice(0, 3)).toEqual(['rrw 1 failure-identification', 'rrw 1 context-review', 'model.request']);
    expect(steps.filter((s) => s === 'submission')).toHaveLength(1); // the fix, in code refinement
    expect(events.at(-1)).toMatchObject({ type: 'result', pass: true });
  }, 120_000);
});

describe('rerun of a session whose patch was applied to the checkout', () => {
  it('names what makes the rest differ first: the target file changed since, and the run that found nothing to generate against', async () => {
    const dir = join(scratch, 'applied');
    const repo = join(scratch, 'applied-repo');
    cpSync(join(ROOT, 'examples', 'invoicing'), repo, { recursive: true });
    const env = { TENET_SESSIONS_DIR: dir, OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', XDG_CONFIG_HOME: '/nonexistent' };
    const script = join(ROOT, 'examples', 'invoicing.demo.json');
    const ran = await runCli(
      [
        'run',
        '--repo',
        repo,
        '--target',
        'invoicing/tax.py::tax_for',
        '--provider',
        'scripted',
        '--script',
        script,
        '--apply',
        '--headless',
      ],
      { env },
    );
    expect(ran.code, ran.stderr).toBe(0);
    const id = new Catalog(dir).list()[0]!.id;
    const rerun = await runCli(['rerun', id], { env });
    expect(rerun.code).toBe(1);
    const steps = [...rerun.stdout.matchAll(/^- (.+)$/gm)].map((match) => match[1]);
    expect(steps.slice(0, 2)).toEqual(['target file', 'run']);
    expect(rerun.stdout).toContain("invoicing/tax.py has changed since (the session's own patch, applied, changes it)");
    expect(rerun.stdout).toContain(
      'stopped: No test to validate against: no test in scope fails with invoicing/tax.py::tax_for as it is',
    );
  }, 120_000);
});
