import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli';
import { copyFixture } from '../helpers/fixtures';

/** Cart.total with docstrings over several lines, its own and a nested function's. */
const TOTAL = `    def total(self):
        """
        Subtotal after the cart's discount.

        The discount is the cart's percent.
        """

        def after_discount(amount):
            """
            The amount less the discount.
            """
            return discount(amount, self.percent)

        return after_discount(self.subtotal())
`;

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

describe('a method submitted unchanged', () => {
  it('at column 0, as a model writes it, gives an empty patch in benchmark mode: its docstrings move into the class with its code', async () => {
    const repo = copyFixture('shop');
    cleanups.push(repo.cleanup);
    const file = join(repo.dir, 'shop', 'cart.py');
    const original = readFileSync(file, 'utf8');
    const start = original.indexOf('    def total(self):');
    const end = original.indexOf('    def summary(self):');
    writeFileSync(file, `${original.slice(0, start)}${TOTAL}\n${original.slice(end)}`);
    const scratch = mkdtempSync(join(tmpdir(), 'tenet-docstring-'));
    cleanups.push(() => rmSync(scratch, { recursive: true, force: true }));
    const script = join(scratch, 'script.json');
    const code = TOTAL.replace(/^ {4}/gm, '');
    writeFileSync(
      script,
      JSON.stringify({
        turns: [{ say: 'The original.', calls: [{ name: 'submit_implementation', arguments: { code } }] }],
      }),
    );

    const result = await runCli([
      'run',
      '--repo',
      repo.dir,
      '--target',
      'shop/cart.py::Cart.total',
      '--blank',
      '--provider',
      'scripted',
      '--script',
      script,
      '--json',
      '--tests',
      'tests/test_cart.py',
    ]);
    const last = JSON.parse(result.stdout.trim().split('\n').at(-1)!);
    expect(last).toMatchObject({ type: 'result', pass: true, patch: '' });
    expect(result.code).toBe(0);
  }, 180_000);
});
