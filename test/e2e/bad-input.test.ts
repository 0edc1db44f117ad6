import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli';
import { copyFixture, FIXTURES, ROOT, treeHash } from '../helpers/fixtures';

const scratch = mkdtempSync(join(tmpdir(), 'tenet-bad-input-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const file = join(scratch, 'a-file');
writeFileSync(file, 'not a folder\n');
const SHOP = ['--repo', join(FIXTURES, 'shop'), '--target', 'shop/cart.py::Cart.total', '--blank'];

/** One clear line (and its fix), exit 2, no stack trace. */
async function refused(args: string[], says: RegExp, env: NodeJS.ProcessEnv = {}) {
  const result = await runCli(args, { env });
  expect(result.code, result.stderr).toBe(2);
  expect(result.stderr).toMatch(says);
  expect(result.stderr).not.toMatch(/^\s+at /m);
  return result;
}

describe('bad input: one clear line, exit 2, nothing changed', () => {
  it('bare tenet with a --repo that is missing or a file (the start screen never opens on nothing)', async () => {
    await refused(['--repo', join(scratch, 'missing')], /Repository folder .*missing does not exist/);
    await refused(['--repo', file, '--provider', 'openai'], /--repo .*a-file is a file, not a folder/);
  });

  it('--tests given to a command that runs no scope (it is split off before parsing, so nothing else would say it went unused)', async () => {
    const result = await refused(
      ['replay', 'demo', '--tests', 'tests/test_cart.py'],
      /error: tenet replay takes no --tests \(what follows it is the scope pytest runs, in tenet alone \(the start screen\), tenet thm, .*tenet run, tenet bench make\)/,
    );
    expect(result.stdout).toBe('');
    await refused(['bench', 'report', scratch, '--tests', 'x'], /error: tenet bench report takes no --tests/);
  });

  it('a sessions folder that is a file', async () => {
    await refused(['sessions', '--sessions-dir', file], /the sessions folder .*a-file is a file; it must be a folder/);
  });

  it('export --out into a missing folder, or onto a folder', async () => {
    await refused(
      ['export', 'demo', '--out', join(scratch, 'missing', 'x.json')],
      /--out .*x\.json: the folder .*missing does not exist/,
    );
    await refused(['export', 'demo', '--out', scratch], /--out .* is a folder; it must name a file/);
  });

  it('cast flags out of range or without --format cast; replay --at past the last event (issue 37)', async () => {
    await refused(
      ['export', 'demo', '--format', 'cast', '--cols', '20'],
      /--cols must be a whole number from 40 to 400/,
    );
    await refused(['export', 'demo', '--format', 'cast', '--idle-limit', '0'], /--idle-limit must be a number > 0/);
    await refused(
      ['export', 'demo', '--rows', '40'],
      /--rows is for --format cast .*this export is --format json[\s\S]*add --format cast, or leave --rows out/,
    );
    const last = readFileSync(join(ROOT, 'sessions', 'demo', 'events.jsonl'), 'utf8')
      .trim()
      .split('\n').length;
    await refused(
      ['replay', 'demo', '--at', '5000', '--json'],
      new RegExp(
        `Session demo has no event 5000: its events are numbered 1 to ${last}[\\s\\S]*give --at a number from 1 to ${last}`,
      ),
    );
  });

  it('bench run --out naming a file', async () => {
    const tasks = join(scratch, 'tasks.jsonl');
    writeFileSync(tasks, '');
    await refused(['bench', 'run', tasks, '--out', file], /--out .*a-file is a file; it must be a folder/);
  });

  it('a session whose events.jsonl is a folder', async () => {
    const sessions = join(scratch, 'sessions');
    mkdirSync(join(sessions, 's1', 'events.jsonl'), { recursive: true });
    await refused(
      ['show', 's1', '--sessions-dir', sessions],
      /The session log .*events\.jsonl is a folder, not a file/,
    );
  });

  it('an image tag Docker would refuse, before any building', async () => {
    const started = Date.now();
    await refused(['image', 'build', '--tag', 'UPPER::bad'], /--tag "UPPER::bad" is not an image name Docker accepts/);
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it('a base URL that is not a URL', async () => {
    await refused(
      ['run', ...SHOP, '--provider', 'openai', '--base-url', 'not-a-url', '--headless'],
      /The base URL "not-a-url" is not an http\(s\) URL/,
      { OPENAI_API_KEY: 'k' },
    );
  });

  it('--approve ask in a headless run, which cannot ask', async () => {
    await refused(
      ['run', ...SHOP, '--provider', 'openai', '--approve', 'ask', '--json'],
      /--approve ask needs the terminal UI to ask in/,
      { OPENAI_API_KEY: 'k' },
    );
  });

  it('an unknown session status', async () => {
    await refused(
      ['sessions', '--status', 'bogus'],
      /argument 'bogus' is invalid.*running, passed, failed, unverified, interrupted, error, damaged/s,
    );
  });

  it('an interpreter that prints nothing', async () => {
    await refused(
      ['thm', ...SHOP, '--python', '/bin/true'],
      /did not run: it exited with code 0 and printed nothing \(is it a Python interpreter\?\)/,
    );
  });

  it('--repo naming a file', async () => {
    await refused(['thm', '--repo', file, '--target', 'x.py::f'], /--repo .*a-file is a file, not a folder/);
  });

  it('a target module that does not compile is named with its line, before any test runs', async () => {
    const repo = copyFixture('shop');
    try {
      appendFileSync(join(repo.dir, 'shop', 'cart.py'), '\ndef broken(:\n    pass\n');
      const before = treeHash(repo.dir);
      const result = await refused(
        ['thm', '--repo', repo.dir, '--target', 'shop/cart.py::Cart.total', '--blank'],
        /shop\/cart\.py does not compile \(line \d+, column \d+: .*\), so no test can import it/,
      );
      expect(result.stderr).toMatch(/fix: fix the syntax error at shop\/cart\.py:\d+/);
      expect(treeHash(repo.dir)).toBe(before);
    } finally {
      repo.cleanup();
    }
  });

  it('a target lost to a syntax error earlier in its file is that syntax error, with its line, not a missing function', async () => {
    const repo = copyFixture('shop');
    try {
      // `add` without its colon takes the methods after it out of the class for the parser.
      const cart = join(repo.dir, 'shop', 'cart.py');
      writeFileSync(
        cart,
        readFileSync(cart, 'utf8').replace(
          'def add(self, name, price, quantity=1):',
          'def add(self, name, price, quantity=1)',
        ),
      );
      const result = await refused(
        ['thm', '--repo', repo.dir, '--target', 'shop/cart.py::Cart.total', '--blank'],
        /shop\/cart\.py does not compile \(line 11, column 43: expected ':'\), so tenet cannot find Cart\.total in it/,
      );
      expect(result.stderr).toContain('def add(self, name, price, quantity=1)');
      expect(result.stderr).toMatch(/fix: fix the syntax error at shop\/cart\.py:11,/);
      expect(result.stderr).not.toContain('No function');
    } finally {
      repo.cleanup();
    }
  });
});
