import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSession } from '../../source/engine/session/load';
import { finished, runCli, startCli, waitFor } from '../helpers/cli';
import { startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server';
import { SHOP_TOTAL_RIGHT, scratchWithServers } from '../helpers/steering-scratch';
import { copyFixture } from '../helpers/fixtures';

// Issue 14.2: step mode. Headless, `--step` holds the agent before every model call and tool call,
// says on stderr what is about to happen, and reads the developer's answer from stdin: a script
// (or a teacher at a pipe) goes on, adds a message, or runs a tool call with other arguments.

const { scratch, track } = scratchWithServers('tenet-steer-step-');
const RIGHT = SHOP_TOTAL_RIGHT;
let server: FakeModelServer | undefined;

describe('--step in a headless run', () => {
  it('pauses before each model and tool call; an edited call runs with the developer’s arguments (recorded); a message goes with the next call; s ends step mode; rerun agrees', async () => {
    const dir = join(scratch, 'sessions');
    server = track(
      await startFakeModelServer([
        { say: 'Find the class.', calls: [{ name: 'search_class', arguments: { class_name: 'Kart' } }] },
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
        [
          'run',
          '--repo',
          repo.dir,
          '--target',
          'shop/cart.py::Cart.total',
          '--blank',
          '-T',
          '2',
          '--provider',
          'openai',
          '--model',
          'gpt-4o-mini',
          '--json',
          '--step',
          '--tests',
          'tests/test_cart.py',
        ],
        { env, stdin: 'pipe' },
      );
      const ended = finished(child);
      const err = () => child.output.stderr;
      const answer = async (pause: string, lines: string[], nth = 1) => {
        await waitFor(() => err().split(pause).length > nth, 60_000, pause);
        for (const line of lines) child.stdin!.write(`${line}\n`);
      };
      await answer('⏸ before model call 1', ['']);
      expect(server.requests).toHaveLength(0); // held until the answer
      await answer('⏸ before tool call search_class', ['e {"class_name": "Cart"}', '']);
      expect(err()).toContain('"class_name": "Kart"');
      await answer('⏸ before model call 2', ['m Submit now, the tests are clear.', '']);
      await answer('⏸ before tool call submit_implementation', ['s']);
      const result = await ended;
      expect(result.code, result.stderr).toBe(0);
      expect(err()).toContain('step: step mode is off');

      const events = result.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(events.filter((e) => e.type === 'step.pause').map((e) => e.before)).toEqual([
        'model',
        'tool',
        'model',
        'tool',
      ]);
      expect(events.find((e) => e.type === 'tool.edit')).toMatchObject({
        name: 'search_class',
        original: '{"class_name":"Kart"}',
        arguments: '{"class_name":"Cart"}',
      });
      const found = events.find((e) => e.type === 'tool.result' && e.name === 'search_class');
      expect(found.text).toMatch(
        /^The developer changed the arguments of this call before it ran\. It ran with:\n\{"class_name":"Cart"\}/,
      );
      expect(found.text).toContain('class Cart');
      expect(found.ok).toBe(true);
      expect(events.find((e) => e.type === 'developer.message')).toMatchObject({
        text: 'Submit now, the tests are clear.',
        round: 2,
        via: 'stdin',
      });
      // The model got both: the result of the call as it ran, and the message.
      const second = JSON.stringify(server.requests[1]!.body.messages);
      expect(second).toContain('It ran with:');
      expect(second).toContain('Submit now, the tests are clear.');

      const id = events[0].sessionId as string;
      const shown = await runCli(['show', id], { env });
      expect(shown.stdout).toContain('_The developer changed the arguments before it ran; it ran with:_');
      expect(shown.stdout).toContain('_Step mode: paused before model call 1._');
      const rerun = await runCli(['rerun', id], { env });
      expect(rerun.stdout).toContain('No divergence');
      expect(rerun.code).toBe(0);
      const rerunId = /rerun saved as (\S+)\)/.exec(rerun.stdout)![1]!;
      expect(loadSession(dir, rerunId).events.filter((e) => e.type === 'tool.edit')).toHaveLength(1);
    } finally {
      repo.cleanup();
    }
  }, 120_000);

  it('when stdin ends, step mode ends and the run goes on by itself', async () => {
    server = track(
      await startFakeModelServer([{ calls: [{ name: 'submit_implementation', arguments: { code: RIGHT } }] }]),
    );
    const repo = copyFixture('shop');
    try {
      const env = {
        TENET_SESSIONS_DIR: join(scratch, 'eof'),
        OPENAI_API_KEY: 'k',
        OPENAI_BASE_URL: `${server.url}/v1`,
        XDG_CONFIG_HOME: '/nonexistent',
      };
      const result = await runCli(
        [
          'run',
          '--repo',
          repo.dir,
          '--target',
          'shop/cart.py::Cart.total',
          '--blank',
          '-T',
          '2',
          '--provider',
          'openai',
          '--model',
          'gpt-4o-mini',
          '--step',
          '--tests',
          'tests/test_cart.py',
        ],
        { env },
      );
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toContain('step: the input ended; step mode is off');
      expect(result.stdout).toMatch(/^PASS · selected/m);
    } finally {
      repo.cleanup();
    }
  }, 120_000);
});
