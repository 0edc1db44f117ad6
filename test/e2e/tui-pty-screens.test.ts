import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Catalog } from '../../source/engine/session/catalog';
import { loadSession } from '../../source/engine/session/load';
import { startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server';
import { copyFixture } from '../helpers/fixtures';
import { KEY, shopRunArgs, startInPty } from '../helpers/pty';
import { SGR, scratch } from '../helpers/tui-pty';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('the TUI in a pseudo-terminal, against the fake model server', () => {
  it('a replay honours NO_COLOR and fits 100×30 without clearing the terminal', async () => {
    const run = (env: NodeJS.ProcessEnv) => {
      const tui = startInPty(['replay', 'demo', '--speed', '50'], env, { cols: 100, rows: 30 });
      let raw = '';
      tui.pty.onData((data) => (raw += data));
      return { tui, raw: () => raw };
    };
    const plain = run({ NO_COLOR: '1' });
    await plain.tui.waitFor('PASS: 3/3 selected passed', 30_000);
    plain.tui.send('q');
    expect(await plain.tui.exited).toBe(0);
    expect(plain.raw()).not.toMatch(SGR);
    expect(plain.raw()).not.toContain('\x1b[2J');
    // Without it, the same replay is in colour (so the check above can fail).
    const coloured = run({ NO_COLOR: '' });
    await coloured.tui.waitFor('PASS: 3/3 selected passed', 30_000);
    coloured.tui.send('q');
    expect(await coloured.tui.exited).toBe(0);
    expect(coloured.raw()).toMatch(SGR);
  }, 60_000);
  it("a submission's code is on screen in full, and grows while the model writes it", async () => {
    const steps = Array.from(
      { length: 30 },
      (_, i) => `    # step ${String(i + 1).padStart(2, '0')} of the total: nothing left out of the view`,
    );
    const code = [
      'def total(self):',
      ...steps,
      '    amount = self.subtotal()',
      '    return discount(amount, self.percent)',
      '',
    ].join('\n');
    // Streamed a few characters at a time, as a slow model writes.
    server = await startFakeModelServer([
      {
        say: 'Here is the whole method.',
        calls: [{ name: 'submit_implementation', arguments: { code } }],
        chunkDelayMs: 15,
      },
    ]);
    const repo = copyFixture('shop');
    try {
      const tui = startInPty(
        shopRunArgs(repo.dir, ['--rrw-attempts', '0']),
        {
          OPENAI_API_KEY: 'sk-test',
          OPENAI_BASE_URL: `${server.url}/v1`,
          TENET_SESSIONS_DIR: join(scratch, 'full-code'),
        },
        { cols: 120, rows: 40 },
      );
      await tui.waitFor('Selected', 60_000);
      await tui.press(KEY.enter, 'pre-generation', 60_000);
      // While the arguments stream: the call's name, the code so far, a spinner with the tokens.
      await tui.waitFor('→ submit_implementation  (writing…)', 30_000);
      await tui.waitFor(/model · \d+ s · ~\d+ tokens/);
      await tui.waitFor('a apply the patch', 60_000);
      const screen = tui.screen();
      expect(screen).toContain('✎ submission 1 (against the blanked function');
      // Every line of the submission, as a line of the diff (added), none cut.
      for (const step of steps) expect(screen).toContain(`+${step}`);
      expect(screen).toContain('+    return discount(amount, self.percent)');
      await tui.settled();
      tui.send('q');
      expect(await tui.exited).toBe(0);
    } finally {
      repo.cleanup();
    }
  }, 120_000);

  it('a block pasted into the pdb line reaches pdb line by line', async () => {
    server = await startFakeModelServer([
      {
        say: 'Let me read subtotal first.',
        calls: [{ name: 'search_method_in_class', arguments: { method_name: 'subtotal', class_name: 'Cart' } }],
        delayMs: 1500,
      },
      {
        calls: [
          {
            name: 'submit_implementation',
            arguments: {
              code: 'def total(self):\n    amount = self.subtotal()\n    return discount(amount, self.percent)\n',
            },
          },
        ],
      },
    ]);
    const repo = copyFixture('shop');
    const sessions = join(scratch, 'paste');
    try {
      const tui = startInPty(shopRunArgs(repo.dir, ['--approve', 'auto']), {
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: `${server.url}/v1`,
        TENET_SESSIONS_DIR: sessions,
      });
      await tui.waitFor('Selected');
      const agentAt = await tui.press(KEY.enter, 'pre-generation', 60_000);
      tui.send('t');
      await tui.waitFor('you have the debugger', 30_000, agentAt);
      const pdbAt = await tui.waitFor('(Pdb)', 30_000, agentAt);
      // One write, as a terminal delivers a paste: three lines, each ended by a newline.
      tui.send('p 6 * 7\rp 111 + 111\rp "pasted" + "!"\r');
      await tui.waitFor("'pasted!'", 30_000, pdbAt);
      const after = tui.screen().slice(pdbAt);
      expect(after).toContain('42');
      expect(after).toContain('222');
      tui.send(KEY.escape); // hand back (the line is empty)
      await tui.waitFor('a apply the patch', 60_000);
      await tui.settled();
      tui.send('q');
      expect(await tui.exited).toBe(0);
      const id = new Catalog(sessions).list()[0]!.id;
      const typed = loadSession(sessions, id).events.flatMap((e) =>
        e.type === 'debugger.entry' && e.entry.who === 'human' ? [e.entry.input] : [],
      );
      expect(typed).toEqual(expect.arrayContaining(['p 6 * 7', 'p 111 + 111', 'p "pasted" + "!"']));
      expect(typed.indexOf('p 111 + 111')).toBe(typed.indexOf('p 6 * 7') + 1);
    } finally {
      repo.cleanup();
    }
  }, 120_000);

  it('THM review of a cluster of 210 tests: PgDn moves a page, / filters', async () => {
    const repo = mkdtempSync(join(scratch, 'big-cluster-'));
    mkdirSync(join(repo, 'textpkg'));
    mkdirSync(join(repo, 'tests'));
    writeFileSync(join(repo, 'textpkg', '__init__.py'), '');
    writeFileSync(
      join(repo, 'textpkg', 'wrapping.py'),
      'def wrap(text, width):\n    """The lines of text, at most width wide."""\n    raise NotImplementedError\n\n\ndef fill(text, width):\n    return "\\n".join(wrap(text, width))\n',
    );
    writeFileSync(
      join(repo, 'tests', 'test_wrapping_behaviour_of_the_fill_helper.py'),
      'import pytest\nfrom textpkg.wrapping import fill\n\n\n@pytest.mark.parametrize("n", range(210))\ndef test_fill_keeps_every_word_of_a_long_paragraph(n):\n    assert fill("a " * n, 10).count("a") == n\n',
    );
    const run = startInPty(
      [
        'run',
        '--repo',
        repo,
        '--target',
        'textpkg/wrapping.py::wrap',
        '--provider',
        'openai',
        '--model',
        'm',
        '--base-url',
        'http://127.0.0.1:9/v1',
      ],
      { OPENAI_API_KEY: 'sk-test', TENET_SESSIONS_DIR: join(scratch, 'big') },
      { cols: 100, rows: 30 },
    );
    // The first cluster opens on its own: its tests are listed with the review's first frame.
    await run.waitFor(/Selected[\s\S]*test_fill_keeps_every_word_of_a_long_paragraph\[0\]/, 120_000);
    await run.settled();
    await run.press(KEY.down, 'test 1/210 of its cluster');
    const before = run.screen().length;
    await run.press(KEY.pageDown, /test \d+\/210 of its cluster/);
    const frame = run.screen().slice(before);
    const at = Number(/test (\d+)\/210 of its cluster/.exec(frame)![1]);
    expect(at).toBeGreaterThan(5);
    // The cursor's row keeps both ends of the long id: the file and the test's name with its parameter.
    expect(frame).toMatch(/❯ +★? *tests\/test_wrap[^\n]*…[^\n]*long_paragraph\[\d+\]/);
    await run.press(KEY.end, 'test 210/210 of its cluster');
    await run.press('/', 'filter clusters and tests');
    const typed = run.screen().length;
    await run.press('paragraph[13', '11 tests match'); // 13 and 130-139
    expect(run.screen().slice(typed)).toContain('long_paragraph[139]');
    expect(run.screen().slice(typed)).not.toContain('long_paragraph[140]');
    await run.press(KEY.enter, 'filter "paragraph[13": 11 tests match');
    await run.press(KEY.escape, 'cluster 1/1 · PgUp PgDn Home End · / filters'); // the filter is gone
    await run.press(KEY.ctrlC, 'Press Ctrl+C again');
    run.send(KEY.ctrlC);
    expect(await run.exited).toBe(130);
  }, 240_000);

  it('bare tenet --tests: the start screen says the scope, and the session it starts runs THM on that scope, not the whole suite', async () => {
    const repo = copyFixture('shop');
    try {
      const tui = startInPty(
        [
          '--repo',
          repo.dir,
          '--provider',
          'openai',
          '--base-url',
          'http://127.0.0.1:9/v1',
          '--tests',
          'tests/test_cart.py',
        ],
        { OPENAI_API_KEY: 'sk-test', TENET_SESSIONS_DIR: join(scratch, 'scoped') },
      );
      await tui.waitFor('tests: tests/test_cart.py (--tests)');
      await tui.waitFor(/\d+ of \d+ functions/, 60_000);
      await tui.press('Cart.total', /1 of \d+ functions/);
      await tui.press('\t', 'mode: benchmark');
      // The whole suite has 23 tests; test_cart.py 4.
      await tui.press(KEY.enter, 'THM 4 tests ·', 60_000);
      tui.send(KEY.ctrlC + KEY.ctrlC);
      expect(await tui.exited).toBe(130);
    } finally {
      repo.cleanup();
    }
  }, 120_000);

  it('bare tenet takes the model flags of run; without a model it says what to set and d runs the demo', async () => {
    const repo = copyFixture('shop');
    const home = mkdtempSync(join(scratch, 'home-'));
    const clean = {
      OPENAI_API_KEY: '',
      ANTHROPIC_API_KEY: '',
      OPENAI_BASE_URL: '',
      ANTHROPIC_BASE_URL: '',
      HOME: home,
      XDG_CONFIG_HOME: home,
      TENET_SESSIONS_DIR: join(scratch, 'bare'),
    };
    try {
      const flagged = startInPty(
        ['--repo', repo.dir, '--provider', 'openai', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'my-model'],
        clean,
        { cols: 120, rows: 30 },
      );
      await flagged.waitFor('model: my-model (OpenAI-compatible, http://127.0.0.1:9/v1)');
      await flagged.waitFor(/\d+ of \d+ functions/, 60_000);
      flagged.send(KEY.escape);
      expect(await flagged.exited).toBe(0);

      const bare = startInPty(['--repo', repo.dir], clean, { cols: 60, rows: 20 });
      await bare.waitFor('d run the scripted demo');
      expect(bare.screen().replace(/\s+/g, ' ')).toContain(
        'No model is configured. To use a model, set OPENAI_API_KEY (or ANTHROPIC_API_KEY); or pass --provider openai --base-url URL',
      );
      // The demo: its scripted model says so, THM runs on the example.
      await bare.press('d', '⚠ scripted demo model', 60_000);
      await bare.waitFor('Selected', 60_000);
      // Both at once, as a quick double press arrives: one read, "\x03\x03".
      bare.send(KEY.ctrlC + KEY.ctrlC);
      expect(await bare.exited).toBe(130);
    } finally {
      repo.cleanup();
    }
  }, 180_000);
});
