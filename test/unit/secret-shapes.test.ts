import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { secretsInPatch } from '../../source/engine/eval/patch-secrets';
import { findSecretShapes, redactShapes } from '../../source/engine/secrets';
import { ChunkBuffer } from '../../source/engine/session/chunk-buffer';
import { secretRedactor } from '../../source/engine/util/redact';
import { fakeSecrets, inFile, randomText } from '../helpers/fake-secrets';
import { execFileSync } from 'node:child_process';

const SECRETS = fakeSecrets();

describe('secret shapes', () => {
  it.each(Object.entries(SECRETS))('recognises a %s, alone and amid text', (name, { secret, label }) => {
    const written = inFile(name, secret);
    const text = `before\nvalue = "${written}"\nafter`;
    const out = redactShapes(text);
    expect(out).not.toContain(secret);
    expect(out).toContain(`[redacted:${label}]`);
    expect(out.startsWith('before\nvalue = "')).toBe(true);
    expect(out.endsWith('"\nafter')).toBe(true);
    // A key block printed by a program that JSON-encoded it: its line breaks are `\n` escapes.
    expect(redactShapes(JSON.stringify({ out: text }))).not.toContain(secret.split('\n')[1] ?? secret);
    // …and escaped twice: a tool call's arguments (JSON text) inside an event (JSON).
    const twice = JSON.stringify({ arguments: JSON.stringify({ cmd: text }) });
    expect(redactShapes(twice)).not.toContain(secret.split('\n')[1] ?? secret);
  });

  it('keeps the Bearer header and redacts the token only', () => {
    const token = SECRETS['bearer token']!.secret;
    expect(redactShapes(`headers = {"Authorization": "Bearer ${token}"}`)).toBe(
      'headers = {"Authorization": "Bearer [redacted:bearer-token]"}',
    );
    // In a tool call's arguments (JSON text), stored as a string of the event (JSON again): escaped quotes.
    const call = JSON.stringify({ code: `headers = {"Authorization": "Bearer ${token}"}` });
    expect(redactShapes(JSON.stringify({ arguments: call }))).not.toContain(token);
    expect(redactShapes(`curl -H 'authorization: bearer ${token}'`)).toBe(
      "curl -H 'authorization: bearer [redacted:bearer-token]'",
    );
  });

  it('redacts a private-key block cut short (no END line) as far as its base64 goes', () => {
    const block = SECRETS['private key']!.secret;
    const head = block.split('\n').slice(0, 4).join('\n');
    expect(redactShapes(`$ head -4 id_rsa\n${head}\n$ echo done`)).toBe(
      '$ head -4 id_rsa\n[redacted:private-key]$ echo done',
    );
  });

  it('leaves ordinary code and data alone', () => {
    const ordinary = [
      'task-0123456789abcdefghij disk-cache-0123456789abcdef',
      'sk-learn-contrib-release-notes and risk-assessment-of-the-model',
      `sha = "${randomText(40, 1, '0123456789abcdef')}"`,
      `uuid = "123e4567-e89b-12d3-a456-426614174000"`,
      `data = "${Buffer.from(randomText(300, 2)).toString('base64')}"`,
      'ghp_short and gho_ and ghs_some_identifier_name_here',
      'AKIAIOSFODNN7EXAMPLE is the documentation example',
      'headers["Authorization"] = f"Bearer {token}"',
      `PEM_START = "-----BEGIN RSA PRIVATE KEY-----"\nPEM_END = "-----END RSA PRIVATE KEY-----"`,
      'eyJhbGciOiJIUzI1NiJ9 alone is a header, not a token',
      'xoxb- and AIza are prefixes, not keys',
      'account_id = "123456789012"',
    ].join('\n');
    expect(findSecretShapes(ordinary)).toEqual([]);
  });

  it('finds nothing in the Python sources of networkx, sympy and jsonschema', () => {
    const python = execFileSync('python3', ['-c', 'import networkx, sympy, jsonschema; print(networkx.__file__)'])
      .toString()
      .trim();
    const site = dirname(dirname(python));
    const files = ['networkx/algorithms/shortest_paths/weighted.py', 'sympy/core/expr.py', 'jsonschema/_keywords.py'];
    for (const file of files) expect(findSecretShapes(readFileSync(join(site, file), 'utf8'))).toEqual([]);
  });
});

describe('the redactor with shapes', () => {
  const redactor = secretRedactor({ PATH: '/usr/bin' });
  const token = SECRETS['GitHub classic token']!.secret;

  it('redacts shapes in values and JSON, and leaves a value without secrets as it is', () => {
    const event = { type: 'tool.result', text: `cat .env\nGH=${token}\n`, ok: true };
    expect(redactor.json(event)).toBe(
      JSON.stringify({ type: 'tool.result', text: 'cat .env\nGH=[redacted:github-token]\n', ok: true }),
    );
    const clean = { type: 'tool.result', text: 'all good', nested: [{ a: 'b' }] };
    expect(redactor.value(clean)).toBe(clean);
  });

  it('does not store a private-key block streamed line by line before its END line comes', () => {
    const chunks = new ChunkBuffer(redactor);
    const lines = SECRETS['private key']!.secret.split('\n');
    const stored: string[] = [];
    for (const line of ['$ cat key.pem', ...lines, 'done']) {
      const whole = chunks.push({ type: 'debugger.output', chunk: `${line}\n` });
      if (whole?.type === 'debugger.output') stored.push(whole.chunk);
    }
    for (const rest of chunks.drain()) if (rest.type === 'debugger.output') stored.push(rest.chunk);
    // The block is stored in one piece, so that its redaction sees it whole.
    expect(stored.map((text) => redactor.text(text)).join('')).toBe('$ cat key.pem\n[redacted:private-key]\ndone\n');
  });

  it('does not cut a token in two when a long line must be stored before its end', () => {
    const long = `${'x'.repeat(70 * 1024)} ${token}`;
    expect(redactor.safeCut(long, long.length)).toBe(long.length - token.length);
  });
});

describe('the patch warning', () => {
  const aws = SECRETS['AWS access key id']!.secret;
  const stripe = SECRETS['Stripe secret key']!.secret;

  it('names the file and line of each shape the patch brings in, not one the file held before', () => {
    const before = `KEY = "${aws}"\n\ndef f():\n    return 1\n`;
    const after = `KEY = "${aws}"\n\ndef f():\n    stripe = "${stripe}"\n    return 1\n`;
    expect(secretsInPatch('pkg/x.py', before, after)).toEqual([
      'the patch holds a string shaped like a Stripe key at pkg/x.py:4',
    ]);
    expect(secretsInPatch('pkg/x.py', before, before)).toEqual([]);
  });
});
