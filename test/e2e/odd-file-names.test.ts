import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli';
import { startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server';
import { FIXTURES } from '../helpers/fixtures';
import { copyTree } from '../../source/engine/workspace/copy-tree';
import { changedPaths, fingerprintTree } from '../../source/engine/workspace/fingerprint';

/**
 * File names are bytes: one that is not UTF-8 anywhere in the repository (issue 34.7) made every
 * target "does not exist" (`Cannot stat …/caf�.txt`): the copy read the name as text, and the
 * text led nowhere. The copy, the checkout's fingerprint and the walks read names as bytes now.
 */
const scratch = mkdtempSync(join(tmpdir(), 'tenet-odd-names-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const ODD_FILE = Buffer.from('caf\xe9.txt', 'latin1');
const ODD_FOLDER = Buffer.from('d\xe9j\xe0', 'latin1');
const at = (dir: string, ...names: Buffer[]) =>
  Buffer.concat([Buffer.from(dir), ...names.flatMap((name) => [Buffer.from('/'), name])]);

/** The shop fixture with a Latin-1 file name at its top and a Latin-1 folder holding a file. */
function oddRepo(name: string): string {
  const repo = join(scratch, name, 'shop');
  cpSync(join(FIXTURES, 'shop'), repo, { recursive: true });
  writeFileSync(at(repo, ODD_FILE), 'menu\n');
  mkdirSync(at(repo, ODD_FOLDER));
  writeFileSync(at(repo, ODD_FOLDER, ODD_FILE), 'inside\n');
  return repo;
}

const RIGHT = 'def total(self):\n    amount = self.subtotal()\n    return discount(amount, self.percent)\n';

describe('a file name that is not UTF-8', () => {
  it('is copied under its own bytes, and the fingerprint sees it and its changes', async () => {
    const repo = oddRepo('copy');
    const copy = join(scratch, 'copy', 'copied');
    await copyTree(repo, copy);
    expect(readFileSync(at(copy, ODD_FILE), 'utf8')).toBe('menu\n');
    expect(readFileSync(at(copy, ODD_FOLDER, ODD_FILE), 'utf8')).toBe('inside\n');
    expect(readdirSync(copy, { encoding: 'buffer' }).some((raw) => raw.equals(ODD_FILE))).toBe(true);
    // Brought up to date over an earlier copy: a stray odd name goes, the repository's stays.
    writeFileSync(at(copy, ODD_FOLDER, Buffer.from('stray\xff', 'latin1')), 'left by a run');
    await copyTree(repo, copy, { over: true });
    expect(readdirSync(at(copy, ODD_FOLDER), { encoding: 'buffer' }).map((raw) => raw.toString('latin1'))).toEqual([
      'caf\xe9.txt',
    ]);

    const before = fingerprintTree(repo);
    expect([...before.keys()]).toContain('caf\\xe9.txt');
    expect([...before.keys()]).toContain('d\\xe9j\\xe0/caf\\xe9.txt');
    writeFileSync(at(repo, ODD_FOLDER, ODD_FILE), 'changed\n');
    expect(changedPaths(before, fingerprintTree(repo))).toEqual(['d\\xe9j\\xe0/caf\\xe9.txt']);
  });

  it('leaves THM and a whole run working: PASS, the patch applied, the odd files as they were', async () => {
    const repo = oddRepo('run');
    const thm = await runCli([
      'thm',
      '--repo',
      repo,
      '--target',
      'shop/cart.py::Cart.total',
      '--blank',
      '--tests',
      'tests/test_cart.py',
    ]);
    expect(thm.code, thm.stderr).toBe(0);
    expect(thm.stdout).toMatch(/failing/);

    server = await startFakeModelServer([{ calls: [{ name: 'submit_implementation', arguments: { code: RIGHT } }] }]);
    const names = () =>
      readdirSync(repo, { encoding: 'buffer' })
        .map((raw) => raw.toString('latin1'))
        .sort();
    const before = names();
    const run = await runCli(
      [
        'run',
        '--repo',
        repo,
        '--target',
        'shop/cart.py::Cart.total',
        '--blank',
        '-T',
        '1',
        '--rrw-attempts',
        '0',
        '--provider',
        'openai',
        '--model',
        'gpt-4o-mini',
        '--apply',
        '--json',
        '--tests',
        'tests/test_cart.py',
      ],
      { env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${server.url}/v1` } },
    );
    const verdict = JSON.parse(run.stdout.trim().split('\n').at(-1)!);
    expect(verdict, run.stderr.slice(-2000)).toMatchObject({ type: 'result', pass: true, applied: true });
    expect(names()).toEqual(before);
    expect(readFileSync(join(repo, 'shop', 'cart.py'), 'utf8')).toContain('return discount(amount, self.percent)');
    expect(readFileSync(at(repo, ODD_FILE), 'utf8')).toBe('menu\n');
    expect(readFileSync(at(repo, ODD_FOLDER, ODD_FILE), 'utf8')).toBe('inside\n');
  }, 120_000);
});
