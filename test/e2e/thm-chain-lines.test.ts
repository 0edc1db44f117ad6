import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../helpers/fixtures';
import { thmOn } from '../helpers/thm';

// Issue 33, item 8: chain lines are the original file's in every mode. find_app's first
// statement is a `try:` (compound), so the probe goes on a line of its own; its caller
// describe_app is below it in the same file (line 14). The worlds and twins modes said 15, the
// two-pass mode, which runs the blank file, 10.
describe.each([
  ['both worlds in lanes', { jobs: 2 as const }],
  ['a blank twin per test', { jobs: 1 as const }],
  ['two passes', { jobs: 1 as const, onePass: false }],
])('chain lines, %s', (_name, mode) => {
  it('are the lines of the original module, below the target too', async () => {
    const { report } = await thmOn(join(FIXTURES, 'nslayout'), 'src/webkit/cli.py::find_app', { blank: true, ...mode });
    const byId = new Map(report.failing.map((f) => [f.nodeid, f]));
    expect(byId.get('tests/test_cli.py::test_describe_without_app')).toMatchObject({
      chain: [
        'tests/test_cli.py::test_describe_without_app',
        'src/webkit/cli.py::describe_app',
        'src/webkit/cli.py::find_app',
      ],
      chainLines: [9, 14, 6],
    });
  }, 60_000);
});
