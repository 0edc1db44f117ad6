import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { redactingModel } from '../../source/engine/model/redacting-model';
import { ProviderError, type Model, type ModelRequest } from '../../source/engine/model/types';
import { LocalSandbox } from '../../source/engine/sandbox/local-sandbox';
import { scrubEnv } from '../../source/engine/secrets';
import { SessionRecorder } from '../../source/engine/session/recorder';
import { secretRedactor } from '../../source/engine/util/redact';

const scratch = mkdtempSync(join(tmpdir(), 'tenet-secrets-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const ENV = {
  PATH: process.env.PATH,
  HOME: '/home/someone',
  PYTHONPATH: '/opt/lib',
  LANG: 'C.UTF-8',
  OPENAI_API_KEY: 'sk-live-0123456789abcdef',
  OPENAI_BASE_URL: 'https://api.example.test/v1',
  ANTHROPIC_API_KEY: 'sk-ant-0123456789abcdef',
  MY_TOKEN: 'tok-0123456789',
  DB_PASSWORD: 'hunter2-hunter2',
  AWS_SECRET_ACCESS_KEY: 'aws-0123456789abcdef',
  GITHUB_TOKEN: 'ghp_0123456789abcdef',
};

describe('the sandbox environment', () => {
  it('drops secrets and provider variables, keeps the rest, and lets --pass-env names through', () => {
    const scrubbed = scrubEnv(ENV);
    expect(Object.keys(scrubbed).sort()).toEqual(['HOME', 'LANG', 'PATH', 'PYTHONPATH']);
    expect(Object.keys(scrubEnv(ENV, ['MY_TOKEN'])).sort()).toEqual(['HOME', 'LANG', 'MY_TOKEN', 'PATH', 'PYTHONPATH']);
  });

  it('drops values shaped like tokens whatever their name, and redacts them, also inside another value (issue 34 item 5)', () => {
    const jwt = `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.${'s'.repeat(20)}`;
    const shaped = {
      GH: `ghp_${'a1'.repeat(18)}`,
      FINE_GRAINED: `github_pat_${'B2_'.repeat(10)}`,
      MODEL: 'sk-proj-0123456789abcdefXYZ',
      CLAUDE: 'sk-ant-api03-0123456789abcdef',
      AWS_ID: 'AKIAABCDEFGHIJKLMNOP',
      SLACK_BOT: 'xoxb-1234567890-abcdefghij',
      SLACK_USER: 'xoxp-1234567890-abcdefghij',
      SESSION: jwt,
      REMOTE: `https://x:ghp_${'c3'.repeat(18)}@github.com/o/r.git`,
    };
    const ordinary = {
      PATH: '/usr/bin',
      TASK: 'task-0123456789abcdefghij',
      NOTE: 'disk-cache-0123456789abcdef',
      SHA: 'a'.repeat(40),
    };
    expect(Object.keys(scrubEnv({ ...shaped, ...ordinary })).sort()).toEqual(Object.keys(ordinary).sort());
    const redact = secretRedactor(shaped);
    const printed = Object.values(shaped)
      .map((value) => `value ${value} end`)
      .join('\n');
    const out = redact.text(`${printed}\nalone ghp_${'c3'.repeat(18)} here`);
    for (const value of Object.values(shaped)) expect(out).not.toContain(value);
    expect(out).not.toContain('ghp_');
    expect(out).toContain('[redacted:REMOTE]');
    expect(redact.text(Object.values(ordinary).join(' '))).toBe(Object.values(ordinary).join(' '));
  });

  it('a local sandbox process (a shell, pytest, the debugger) sees none of them', async () => {
    const sandbox = new LocalSandbox(scratch, ENV);
    const shown = await sandbox.run(['sh', '-c', 'env']);
    await sandbox.dispose();
    for (const name of [
      'OPENAI_API_KEY',
      'OPENAI_BASE_URL',
      'ANTHROPIC_API_KEY',
      'MY_TOKEN',
      'DB_PASSWORD',
      'AWS_SECRET_ACCESS_KEY',
      'GITHUB_TOKEN',
    ]) {
      expect(shown.stdout).not.toContain(`${name}=`);
      expect(shown.stdout).not.toContain(ENV[name as keyof typeof ENV]);
    }
    expect(shown.stdout).toContain('PYTHONPATH=/opt/lib');
    const passing = new LocalSandbox(scratch, ENV, ['MY_TOKEN']);
    expect((await passing.run(['sh', '-c', 'echo "$MY_TOKEN"'])).stdout).toBe('tok-0123456789\n');
    await passing.dispose();
  });
});

describe('redaction', () => {
  const redactor = secretRedactor(ENV);

  it('finds a secret printed over two lines, in text and in JSON', () => {
    expect(redactor.text('key: sk-live-01234\n56789abcdef!')).toBe('key: [redacted:OPENAI_API_KEY]!');
    expect(redactor.text('sk-live-0123456789\r\nabcdef')).toBe('[redacted:OPENAI_API_KEY]');
    expect(redactor.json({ out: 'x sk-live-0123\n456789abcdef y' })).toBe('{"out":"x [redacted:OPENAI_API_KEY] y"}');
    expect(redactor.text('sk-live-01234 56789abcdef')).toBe('sk-live-01234 56789abcdef');
  });

  it('a session never stores a secret printed folded over lines, streamed in pieces', () => {
    const recorder = SessionRecorder.open(scratch, 'folded', ENV);
    recorder.record({ type: 'debugger.output', chunk: '$ echo $T | fold -w 10\nsk-live-01' });
    recorder.record({ type: 'debugger.output', chunk: '\n23456789ab\ncdef\ndone\n' });
    recorder.record({ type: 'warning', message: 'ends the stream' });
    recorder.close();
    const log = readFileSync(join(scratch, 'folded', 'events.jsonl'), 'utf8');
    for (const piece of ['sk-live-01', '23456789ab', 'cdef\\n']) expect(log).not.toContain(piece);
    expect(log).toContain('[redacted:OPENAI_API_KEY]');
  });

  it('what is sent to the model and what its provider says back are redacted', async () => {
    const sent: ModelRequest[] = [];
    const inner: Model = {
      provider: 'openai',
      name: 'm',
      label: 'm',
      async complete(request) {
        sent.push(request);
        if (sent.length > 1) throw new ProviderError(`Incorrect API key provided: ${ENV.OPENAI_API_KEY}`, 401);
        return {
          content: '',
          toolCalls: [],
          usage: { inputTokens: 1, outputTokens: 1 },
          stopReason: 'stop',
          model: 'm',
        };
      },
    };
    const model = redactingModel(inner, redactor);
    const request: ModelRequest = {
      system: 'system',
      messages: [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: '',
          toolCalls: [{ id: '1', name: 'run_debugger_cmd', arguments: '{"cmd":"cat /proc/1/environ"}' }],
        },
        {
          role: 'tool',
          toolCallId: '1',
          name: 'run_debugger_cmd',
          content: `MY_TOKEN=${ENV.MY_TOKEN}\0OPENAI_API_KEY=${ENV.OPENAI_API_KEY}`,
        },
      ],
      tools: [],
      temperature: 0,
      maxTokens: 10,
    };
    await model.complete(request);
    expect(JSON.stringify(sent[0])).not.toContain(ENV.OPENAI_API_KEY);
    expect(JSON.stringify(sent[0])).not.toContain(ENV.MY_TOKEN);
    expect(sent[0]!.messages[2]).toMatchObject({
      content: 'MY_TOKEN=[redacted:MY_TOKEN]\0OPENAI_API_KEY=[redacted:OPENAI_API_KEY]',
    });
    await expect(model.complete(request)).rejects.toMatchObject({
      name: 'ProviderError',
      message: 'Incorrect API key provided: [redacted:OPENAI_API_KEY]',
      status: 401,
    });
  });
});
