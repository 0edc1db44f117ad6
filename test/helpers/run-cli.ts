// The shop fixture's target as `tenet run` takes it: shared by test/e2e/run-cli*.test.ts.
export const RIGHT = 'def total(self):\n    amount = self.subtotal()\n    return discount(amount, self.percent)\n';
export const args = (repo: string) => [
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
