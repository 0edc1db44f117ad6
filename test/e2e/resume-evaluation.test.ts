import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { finished, runCli, startCli, waitFor } from '../helpers/cli';

// A session killed during its evaluation goes on with the evaluation alone; the run's verdict
// keeps why the agent stopped (here its script ran out), where it said "the budget was used up".

const scratch = mkdtempSync(join(tmpdir(), 'tenet-resume-evaluation-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('a session killed during its evaluation', () => {
  it('resumes into the evaluation and keeps the stop reason the agent ended with', async () => {
    const repo = join(scratch, 'repo');
    mkdirSync(join(repo, 'pkg'), { recursive: true });
    mkdirSync(join(repo, 'tests'));
    writeFileSync(join(repo, 'pkg', '__init__.py'), '');
    writeFileSync(join(repo, 'pkg', 'm.py'), 'def add(a, b):\n    """The sum."""\n    return a + b\n');
    // The hidden test is slow, so the evaluation lasts long enough to be killed in.
    writeFileSync(
      join(repo, 'tests', 'test_m.py'),
      'import time\n\nfrom pkg.m import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n\n\ndef test_add_slowly():\n    time.sleep(4)\n    assert add(2, 2) == 4\n',
    );
    const script = join(scratch, 'wrong.json');
    writeFileSync(
      script,
      JSON.stringify({
        turns: [
          {
            calls: [
              {
                name: 'submit_implementation',
                arguments: { code: 'def add(a, b):\n    """The sum."""\n    return 0\n' },
              },
            ],
          },
        ],
      }),
    );
    const env = {
      TENET_SESSIONS_DIR: join(scratch, 'sessions'),
      OPENAI_API_KEY: '',
      ANTHROPIC_API_KEY: '',
      XDG_CONFIG_HOME: '/nonexistent',
    };
    const child = startCli(
      [
        'run',
        '--repo',
        repo,
        '--target',
        'pkg/m.py::add',
        '--blank',
        '--provider',
        'scripted',
        '--script',
        script,
        '--json',
        '-T',
        '1',
      ],
      { env },
    );
    const ended = finished(child);
    await waitFor(() => child.output.stdout.includes('"phase":"evaluate"'), 120_000, 'the evaluation to start');
    child.kill('SIGKILL');
    await ended;
    const id = JSON.parse(child.output.stdout.split('\n')[0]!).sessionId as string;
    expect(child.output.stdout).toContain('"stopReason":"script-ended"');

    const resumed = await runCli(['resume', id, '--script', script, '--json'], { env });
    expect(resumed.code, resumed.stderr).toBe(1);
    const result = JSON.parse(resumed.stdout.trim().split('\n').at(-1)!);
    expect(result).toMatchObject({
      type: 'result',
      pass: false,
      stopReason: 'script-ended',
      rounds: { pregen: 1, rrwAttempts: 1 },
    });
  }, 180_000);
});
