import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyFixture } from './fixtures';

/** The line of the `@discount.setter` decorator in `propertyShop()`'s shop/cart.py (the setter's first line). */
export const SETTER_LINE = 19;

/** The setter, as a scripted model submits it. */
export const SETTER_CODE =
  '@discount.setter\ndef discount(self, value):\n    if value < 0 or value > 100:\n        raise ValueError("percent out of range")\n    self.percent = value\n';

/**
 * A copy of the shop fixture whose Cart has a `discount` property with a setter, and tests of the
 * setter: the target `shop/cart.py::Cart.discount` is ambiguous, so it is named with `@LINE`.
 */
export function propertyShop(): { dir: string; cleanup: () => void } {
  const repo = copyFixture('shop');
  const cart = join(repo.dir, 'shop', 'cart.py');
  const property = [
    '    @property',
    '    def discount(self):',
    '        return self.percent',
    '',
    '    @discount.setter',
    '    def discount(self, value):',
    '        if value < 0 or value > 100:',
    '            raise ValueError("percent out of range")',
    '        self.percent = value',
    '',
    '    def subtotal(self):',
  ].join('\n');
  writeFileSync(cart, readFileSync(cart, 'utf8').replace('    def subtotal(self):', property));
  writeFileSync(
    join(repo.dir, 'tests', 'test_discount.py'),
    [
      'import pytest',
      'from shop.cart import Cart',
      '',
      '',
      'def test_set_discount():',
      '    cart = Cart()',
      '    cart.discount = 20',
      '    assert cart.percent == 20',
      '',
      '',
      'def test_bad_discount():',
      '    with pytest.raises(ValueError):',
      '        Cart().discount = 150',
      '',
    ].join('\n'),
  );
  if (readFileSync(cart, 'utf8').split('\n')[SETTER_LINE - 1]?.trim() !== '@discount.setter')
    throw new Error('the fixture moved: update SETTER_LINE');
  return repo;
}

/** A script that runs a shell command for a few seconds (time for a signal to land mid-run), then submits `code`. */
export function slowScript(code: string): { turns: unknown[] } {
  return {
    turns: [
      { say: 'Waiting.', calls: [{ name: 'run_debugger_cmd', arguments: { cmd: 'sleep 5' } }] },
      { say: 'Setting it.', calls: [{ name: 'submit_implementation', arguments: { code } }] },
    ],
  };
}
