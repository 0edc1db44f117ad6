import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSession } from '../../source/engine/session/load';
import { finished, runCli, startCli, waitFor } from '../helpers/cli';
import { startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server';
import { SHOP_TOTAL_RIGHT, scratchWithServers } from '../helpers/steering-scratch';
import { copyFixture } from '../helpers/fixtures';

// Issue 14.1: the developer talks to the agent mid-run. Headless, `--message-file F`: each line
// written to F while the run goes on goes to the model with its next request, marked as the
// developer's, and is recorded so that show, replay and rerun know it.

const { scratch, track } = scratchWithServers('tenet-steer-messages-');
const RIGHT = SHOP_TOTAL_RIGHT;
let server: FakeModelServer | undefined;
const run = (repo: string) => [
  'run',
  '--repo',
  repo,
  '--target',
  'shop/cart.py::Cart.total',
  '--blank',
  '-T',
  '2',
  '--provider',
  'openai',
  '--model',
  'gpt-4o-mini',
];

/** The user messages of a request the fake server received, as the OpenAI wire format carries them. */
const userTexts = (body: Record<string, unknown>) =>
  (body.messages as { role: string; content: string }[]).filter((m) => m.role === 'user').map((m) => m.content);

describe('--message-file', () => {
  it('a line written while a model call is in flight goes with the next request, marked as the developer’s; show, replay and rerun know it', async () => {
    const dir = join(scratch, 'sessions');
    const messages = join(scratch, 'messages.txt');
    // What the file holds before the run is an earlier run's: not sent.
    writeFileSync(messages, 'an old message\n');
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    server = track(
      await startFakeModelServer([
        {
          say: 'Looking at the cart.',
          calls: [{ name: 'search_class', arguments: { class_name: 'Cart' } }],
          hold: gate,
        },
        { calls: [{ name: 'submit_implementation', arguments: { code: RIGHT } }] },
      ]),
    );
    const repo = copyFixture('shop');
    try {
      const env = {
        TENET_SESSIONS_DIR: dir,
        OPENAI_API_KEY: 'k',
        OPENAI_BASE_URL: `${server.url}/v1`,
        XDG_CONFIG_HOME: '/nonexistent',
      };
      const child = startCli(
        [...run(repo.dir), '--json', '--message-file', messages, '--tests', 'tests/test_cart.py'],
        { env },
      );
      const ended = finished(child);
      // The first call is in flight (the server holds its answer): the developer writes.
      await waitFor(() => server!.requests.length === 1, 60_000, 'the first model call');
      appendFileSync(messages, 'Use the discount helper the module imports.\n');
      appendFileSync(messages, 'a line not finished yet');
      release();
      const result = await ended;
      expect(result.code, result.stderr).toBe(0);

      expect(server.requests).toHaveLength(2);
      const first = userTexts(server.requests[0]!.body);
      expect(first.join('\n')).not.toContain('an old message');
      const second = userTexts(server.requests[1]!.body);
      const told = second.find((text) => text.includes('Use the discount helper the module imports.'));
      expect(told).toContain('A message from the developer who is watching this session');
      expect(second.join('\n')).not.toContain('a line not finished yet');

      const lines = result.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      const event = lines.find((e) => e.type === 'developer.message');
      expect(event).toMatchObject({ text: 'Use the discount helper the module imports.', round: 2, via: 'file' });
      // Recorded before the request it went with.
      const requests = lines.filter((e) => e.type === 'model.request');
      expect(lines.indexOf(event)).toBeLessThan(lines.indexOf(requests[1]));
      const id = lines[0].sessionId as string;

      const shown = await runCli(['show', id], { env });
      expect(shown.stdout).toContain(
        '**The developer** wrote to the model (with request 2, from the message file):\n\n> Use the discount helper the module imports.',
      );
      const replayed = await runCli(['replay', id], { env });
      expect(replayed.stdout).toContain(
        '  developer → model (from the message file): Use the discount helper the module imports.\n',
      );

      const rerun = await runCli(['rerun', id], { env });
      expect(rerun.stdout).toContain('No divergence');
      expect(rerun.code).toBe(0);
      const rerunId = /rerun saved as (\S+)\)/.exec(rerun.stdout)![1]!;
      const again = loadSession(dir, rerunId).events;
      expect(again.filter((e) => e.type === 'developer.message')).toMatchObject([
        { text: 'Use the discount helper the module imports.', round: 2 },
      ]);
      // The conversation the rerun rebuilt carries the message in the same request.
      const secondRequest = again.filter((e) => e.type === 'model.request')[1];
      expect(JSON.stringify(secondRequest)).toContain('Use the discount helper the module imports.');
    } finally {
      repo.cleanup();
    }
  }, 120_000);

  it('a line written after the agent’s last model call is said and recorded: the agent finished before reading it (issue 37.4)', async () => {
    const dir = join(scratch, 'sessions-unread');
    const messages = join(scratch, 'messages-unread.txt');
    writeFileSync(messages, '');
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // One call, which submits the right code: the run passes and the agent makes no other call.
    server = track(
      await startFakeModelServer([
        { calls: [{ name: 'submit_implementation', arguments: { code: RIGHT } }], hold: gate },
      ]),
    );
    const repo = copyFixture('shop');
    try {
      const env = {
        TENET_SESSIONS_DIR: dir,
        OPENAI_API_KEY: 'k',
        OPENAI_BASE_URL: `${server.url}/v1`,
        XDG_CONFIG_HOME: '/nonexistent',
      };
      const child = startCli(
        [...run(repo.dir), '--json', '--message-file', messages, '--tests', 'tests/test_cart.py'],
        { env },
      );
      const ended = finished(child);
      await waitFor(() => server!.requests.length === 1, 60_000, 'the model call');
      appendFileSync(messages, 'Also round to cents.\n');
      release();
      const result = await ended;
      expect(result.code, result.stderr).toBe(0);
      expect(server.requests).toHaveLength(1);
      const lines = result.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      const said = 'Your message was not sent: the agent finished before reading it ("Also round to cents.").';
      expect(lines).toContainEqual(expect.objectContaining({ type: 'warning', message: said }));
      expect(loadSession(dir, lines[0].sessionId as string).events).toContainEqual(
        expect.objectContaining({ type: 'warning', message: said }),
      );
    } finally {
      repo.cleanup();
    }
  }, 120_000);

  it('a folder is refused with exit 2', async () => {
    const result = await runCli(
      [...run('/nonexistent-repo'), '--message-file', scratch, '--tests', 'tests/test_cart.py'],
      { env: { OPENAI_API_KEY: 'k' } },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`--message-file ${scratch} is a folder.`);
  });
});
