import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PassProgress, STRAGGLERS } from '../../source/engine/thm/pass-progress';
import { PluginLineReader, type PluginEvent } from '../../source/engine/thm/plugin-lines';
import { copyFixture, ROOT } from '../helpers/fixtures';

describe("THM's progress while pytest collects and at the end of a pass", () => {
  it("the plugin's collecting events count the tests found so far", () => {
    const shop = copyFixture('shop');
    try {
      const run = spawnSync(
        'python3',
        ['-m', 'pytest', '-p', '_tenet_thm', '-q', '-p', 'no:cacheprovider', '--continue-on-collection-errors'],
        {
          cwd: shop.dir,
          encoding: 'utf8',
          env: {
            ...process.env,
            PYTHONDONTWRITEBYTECODE: '1',
            PYTHONPATH: `${join(ROOT, 'source', 'python')}:${shop.dir}`,
            TENET_ROOT: shop.dir,
            TENET_TARGET_FILE: join(shop.dir, 'shop', 'pricing.py'),
          },
        },
      );
      const events: PluginEvent[] = [];
      const reader = new PluginLineReader((e) => events.push(e));
      reader.push(run.stdout);
      reader.end();
      const collecting = events.filter((e) => e.e === 'collecting');
      expect(collecting.map((e) => e.e === 'collecting' && e.nodeid)).toEqual([
        'tests/test_cart.py',
        'tests/test_constants.py',
        'tests/test_loyalty.py',
        'tests/test_pricing.py',
        'tests/test_tree.py',
      ]);
      const items = collecting.map((e) => (e.e === 'collecting' ? e.items! : -1));
      expect(items[0]).toBe(0);
      expect(items).toEqual([...items].sort((a, b) => a - b));
      const total = events.find((e) => e.e === 'collected');
      expect(items.at(-1)!).toBeGreaterThan(0);
      expect(items.at(-1)!).toBeLessThan(total?.e === 'collected' ? total.total : 0);
    } finally {
      shop.cleanup();
    }
  });

  it('reports collection at most every 250 ms, with the largest counts any shard saw', () => {
    let now = 1000;
    const progress = new PassProgress('probe', undefined, () => now);
    const seen = [
      progress.observe({ e: 'collecting', nodeid: 'a.py', items: 0 }),
      progress.observe({ e: 'collecting', nodeid: 'b.py', items: 40 }),
      ((now += 300), progress.observe({ e: 'collecting', nodeid: 'a.py', items: 0 })), // another shard
      ((now += 300), progress.observe({ e: 'collecting', nodeid: 'c.py', items: 90 })),
    ];
    expect(seen).toEqual([
      { type: 'thm.collecting', phase: 'probe', files: 1, tests: 0 },
      undefined,
      { type: 'thm.collecting', phase: 'probe', files: 2, tests: 40 },
      { type: 'thm.collecting', phase: 'probe', files: 3, tests: 90 },
    ]);
  });

  it(`names the tests still running once at most ${STRAGGLERS} are left, and says when none is`, () => {
    let now = 0;
    const progress = new PassProgress('probe', undefined, () => now);
    progress.observe({ e: 'collected', total: 20, mine: 20, remaining: 20 });
    const test = (nodeid: string) => ({ e: 'test', nodeid }) as PluginEvent;
    const out: unknown[] = [];
    for (let i = 0; i < 11; i++)
      out.push(progress.observe({ e: 'start', nodeid: `t${i}` }), progress.observe(test(`t${i}`)));
    expect(out.filter(Boolean)).toEqual([]); // 9 left: not yet
    now = 100;
    expect(progress.observe({ e: 'start', nodeid: 'slow' })).toBeUndefined();
    now = 200;
    expect(progress.observe({ e: 'start', nodeid: 'b' })).toBeUndefined();
    expect(progress.observe(test('b'))).toEqual({
      type: 'thm.running',
      phase: 'probe',
      tests: [{ nodeid: 'slow', since: 100 }],
    });
    expect(progress.observe(test('slow'))).toEqual({ type: 'thm.running', phase: 'probe', tests: [] });
    expect(progress.observe({ e: 'start', nodeid: 'x' })).toEqual({
      type: 'thm.running',
      phase: 'probe',
      tests: [{ nodeid: 'x', since: 200 }],
    });
  });
});
