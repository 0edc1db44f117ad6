import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { finished, startCli, waitFor } from '../helpers/cli';
import { ROOT } from '../helpers/fixtures';
import { resumeSubmitting } from '../helpers/resume';

// A session stopped while pdb ran the agent's command (`!import time; time.sleep(120)`), then
// resumed: the resume ran the command again in its new shell, where bash read it as a shell
// command (a syntax error, reported as the call's result), and the headless resume said the
// command waited for the developer's approval, which pdb's commands never do.

const scratch = mkdtempSync(join(tmpdir(), 'tenet-resume-pdb-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const debuggerCall = (cmd: string) => ({ say: cmd, calls: [{ name: 'run_debugger_cmd', arguments: { cmd } }] });

describe('resuming a session stopped while pdb ran a command', () => {
  it('answers the cut-off command instead of running it in the new shell', async () => {
    const repo = join(scratch, 'invoicing');
    cpSync(join(ROOT, 'examples', 'invoicing'), repo, { recursive: true });
    const env = {
      TENET_SESSIONS_DIR: join(scratch, 'sessions'),
      OPENAI_API_KEY: '',
      ANTHROPIC_API_KEY: '',
      XDG_CONFIG_HOME: '/nonexistent',
    };
    const slow = join(scratch, 'slow.json');
    writeFileSync(
      slow,
      JSON.stringify({
        turns: [
          debuggerCall('python -c "import pdb; pdb.set_trace(); x = 1"'),
          debuggerCall('!import time; time.sleep(120)'),
        ],
      }),
    );
    const child = startCli(
      [
        'run',
        '--repo',
        repo,
        '--target',
        'invoicing/tax.py::tax_for',
        '--provider',
        'scripted',
        '--script',
        slow,
        '--approve',
        'auto',
        '--json',
      ],
      { env },
    );
    const ended = finished(child);
    await waitFor(
      () => /"type":"debugger\.input"[^\n]*time\.sleep\(120\)[^\n]*"mode":"pdb"/.test(child.output.stdout),
      90_000,
      "pdb's command to start",
    );
    child.kill('SIGTERM');
    expect((await ended).code).toBe(143);
    const id = JSON.parse(child.output.stdout.split('\n')[0]!).sessionId as string;

    const events = await resumeSubmitting(scratch, id, env);
    expect(events.some((e) => e.type === 'debugger.input')).toBe(false);
    const answer = events.find((e) => e.type === 'tool.result' && e.name === 'run_debugger_cmd');
    expect(answer).toMatchObject({
      ok: false,
      text: expect.stringMatching(/^Not run again: the session was interrupted while pdb ran this command/),
    });
    expect(events.at(-1)).toMatchObject({ type: 'result', pass: true });
  }, 180_000);
});
