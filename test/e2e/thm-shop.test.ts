import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, treeHash } from '../helpers/fixtures';
import { DOCKER, DOCKER_PROBLEM } from '../helpers/sandboxes';
import { chains, thmOn, type ThmRun } from '../helpers/thm';
import { LOCAL, type SandboxSpec } from '../../source/engine/sandbox/create-sandbox';

const SHOP = join(FIXTURES, 'shop');
const TARGET = 'shop/pricing.py::apply_discount';

/**
 * Chains as the Python that ran them has them: from 3.12 on, list, dict and set comprehensions run
 * inline (PEP 709) and have no frame of their own; generator expressions keep theirs.
 */
function inlined(version: string): boolean {
  const [major, minor] = version.split('.').map(Number);
  return major! > 3 || (major === 3 && minor! >= 12);
}
const forPython = (version: string, chain: string[]): string[] =>
  inlined(version) ? chain.filter((name) => !/::.*<(listcomp|dictcomp|setcomp)>$/.test(name)) : chain;

// Benchmark mode has three ways to learn each test's outcome on the original code: one
// collection whose forked lanes run the blank world, then the original one on what failed (the
// default where tests run in lanes), one pass that forks a blank twin per test, and two passes.
// They must agree exactly, and give the same report in a Docker container (Debian's Python and
// pytest 7) as on this machine.
type Kind = 'worlds' | 'twins' | 'two passes';
const MODES: [string, Kind, SandboxSpec][] = [
  ['both worlds from one collection', 'worlds', LOCAL],
  ['a blank twin per test', 'twins', LOCAL],
  ['two passes', 'two passes', LOCAL],
  ...(DOCKER_PROBLEM
    ? []
    : [['both worlds from one collection, in a Docker container', 'worlds', DOCKER] as [string, Kind, SandboxSpec]]),
];
describe.each(MODES)('THM on the shop fixture, benchmark mode (apply_discount blanked), %s', (_name, kind, sandbox) => {
  let run: ThmRun;
  let before: string;
  const twins = kind === 'twins';
  beforeAll(async () => {
    before = treeHash(SHOP);
    run = await thmOn(SHOP, TARGET, {
      blank: true,
      onePass: kind !== 'two passes',
      ...(kind === 'twins' ? { worlds: false } : {}),
      sandbox,
    });
    expect(!!run.report.worlds).toBe(kind === 'worlds');
  });

  it('records the exact chain of every failing test, from test or fixture down to the target', () => {
    const version = run.report.python.version;
    const expected: Record<string, string[]> = {
      'tests/test_cart.py::CartTest::test_receipt': [
        'tests/test_cart.py::CartTest.test_receipt',
        'shop/cart.py::receipt',
        'shop/cart.py::Cart.total',
        TARGET,
      ],
      'tests/test_cart.py::CartTest::test_summary': [
        'tests/test_cart.py::CartTest.test_summary',
        'shop/cart.py::Cart.summary',
        'shop/cart.py::Cart.total',
        TARGET,
      ],
      'tests/test_cart.py::CartTest::test_total': [
        'tests/test_cart.py::CartTest.test_total',
        'shop/cart.py::Cart.total',
        TARGET,
      ],
      'tests/test_pricing.py::test_apply_discount_basic': ['tests/test_pricing.py::test_apply_discount_basic', TARGET],
      'tests/test_pricing.py::test_apply_discount_rejects_bad_percent': [
        'tests/test_pricing.py::test_apply_discount_rejects_bad_percent',
        TARGET,
      ],
      'tests/test_pricing.py::test_apply_discount_rounds': [
        'tests/test_pricing.py::test_apply_discount_rounds',
        TARGET,
      ],
      'tests/test_pricing.py::test_bulk_prices': [
        'tests/test_pricing.py::test_bulk_prices',
        'shop/pricing.py::bulk_prices',
        'shop/pricing.py::bulk_prices.<locals>.<listcomp>',
        TARGET,
      ],
      'tests/test_pricing.py::test_bulk_total': [
        'tests/test_pricing.py::test_bulk_total',
        'shop/pricing.py::bulk_total',
        'shop/pricing.py::bulk_total.<locals>.<genexpr>',
        TARGET,
      ],
      'tests/test_pricing.py::test_cart_total': [
        'tests/test_pricing.py::test_cart_total',
        'shop/pricing.py::cart_total',
        TARGET,
      ],
      // Module-scoped fixture: set up in the first test, which reached the target through it; the
      // second gets pytest's cached error without a call (it fails through the fixture).
      'tests/test_pricing.py::test_catalogue_hat': ['tests/conftest.py::catalogue', TARGET],
      'tests/test_pricing.py::test_catalogue_scarf': [],
      'tests/test_pricing.py::test_discount_from_a_subprocess': [],
      'tests/test_pricing.py::test_sale_price_fixture': ['tests/conftest.py::sale_price', TARGET],
      // Calls the target at import time: the whole module fails to import, one failing entry.
      'tests/test_constants.py': ['tests/test_constants.py::<module>', TARGET],
      // Recursion: each level of category_total (and its generator expression) is a frame of the chain.
      'tests/test_tree.py::test_category_total': [
        'tests/test_tree.py::test_category_total',
        'shop/tree.py::category_total',
        'shop/tree.py::category_total.<locals>.<genexpr>',
        'shop/tree.py::category_total',
        'shop/tree.py::category_total.<locals>.<genexpr>',
        'shop/tree.py::category_total',
        TARGET,
      ],
    };
    expect(chains(run.report)).toEqual(
      Object.fromEntries(Object.entries(expected).map(([id, chain]) => [id, forPython(version, chain)])),
    );
  });

  it('names the direct caller (comprehensions skipped), depth and entry kind', () => {
    const byId = new Map(run.report.failing.map((f) => [f.nodeid, f]));
    const listcompDepth = inlined(run.report.python.version) ? 2 : 3;
    expect(byId.get('tests/test_pricing.py::test_bulk_prices')).toMatchObject({
      caller: 'shop/pricing.py::bulk_prices',
      depth: listcompDepth,
      entryKind: 'test',
      reached: true,
    });
    expect(byId.get('tests/test_pricing.py::test_catalogue_hat')).toMatchObject({
      caller: 'tests/conftest.py::catalogue',
      depth: 1,
      entryKind: 'fixture',
      failsThrough: null,
    });
    expect(byId.get('tests/test_pricing.py::test_catalogue_scarf')).toMatchObject({
      reached: false,
      caller: null,
      failsThrough: 'tests/conftest.py::catalogue',
      outcome: 'error',
      phase: 'setup',
    });
    expect(byId.get('tests/test_tree.py::test_category_total')).toMatchObject({
      caller: 'shop/tree.py::category_total',
      depth: 6,
    });
    expect(byId.get('tests/test_pricing.py::test_discount_from_a_subprocess')).toMatchObject({
      reached: false,
      caller: null,
      depth: null,
      entryKind: null,
      failsThrough: null,
    });
    expect(byId.get('tests/test_pricing.py::test_sale_price_fixture')).toMatchObject({
      outcome: 'error',
      phase: 'setup',
    });
    expect(byId.get('tests/test_constants.py')).toMatchObject({
      outcome: 'collection',
      entryKind: 'module',
      caller: 'tests/test_constants.py::<module>',
      depth: 1,
    });
  });

  it('leaves out a test that fails on the original code too', () => {
    expect(run.report.alreadyFailing).toEqual(['tests/test_pricing.py::test_discount_already_broken']);
    expect(chains(run.report)).not.toHaveProperty('tests/test_pricing.py::test_discount_already_broken');
  });

  it('clusters by direct caller in the documented order and selects one test per cluster', () => {
    const cart = ['shop/cart.py::Cart.total', 3, 2, 'tests/test_cart.py::CartTest::test_total'];
    const cartTotal = ['shop/pricing.py::cart_total', 1, 2, 'tests/test_pricing.py::test_cart_total'];
    // Without its <listcomp> frame (Python 3.12+) bulk_prices's chain is one shorter: a depth-2 cluster.
    const middle = inlined(run.report.python.version)
      ? [cart, ['shop/pricing.py::bulk_prices', 1, 2, 'tests/test_pricing.py::test_bulk_prices'], cartTotal]
      : [cart, cartTotal, ['shop/pricing.py::bulk_prices', 1, 3, 'tests/test_pricing.py::test_bulk_prices']];
    expect(run.report.clusters.map((c) => [c.caller, c.tests.length, c.depth, c.representative])).toEqual([
      ['tests/conftest.py::catalogue', 1, 1, 'tests/test_pricing.py::test_catalogue_hat'],
      ['tests/conftest.py::sale_price', 1, 1, 'tests/test_pricing.py::test_sale_price_fixture'],
      ['tests/test_constants.py::<module>', 1, 1, 'tests/test_constants.py'],
      ['tests/test_pricing.py::test_apply_discount_basic', 1, 1, 'tests/test_pricing.py::test_apply_discount_basic'],
      [
        'tests/test_pricing.py::test_apply_discount_rejects_bad_percent',
        1,
        1,
        'tests/test_pricing.py::test_apply_discount_rejects_bad_percent',
      ],
      ['tests/test_pricing.py::test_apply_discount_rounds', 1, 1, 'tests/test_pricing.py::test_apply_discount_rounds'],
      ...middle,
      ['shop/pricing.py::bulk_total', 1, 3, 'tests/test_pricing.py::test_bulk_total'],
      ['shop/tree.py::category_total', 1, 6, 'tests/test_tree.py::test_category_total'],
    ]);
    expect(run.report.selected).toEqual([
      'tests/test_pricing.py::test_catalogue_hat',
      'tests/test_pricing.py::test_sale_price_fixture',
      'tests/test_constants.py',
    ]);
  });

  it('counts every test in scope, as seen with the target blank', () => {
    // 23 tests, less test_half_price whose module cannot be imported blank; test_discount_with_fallback
    // reaches the target but passes blank.
    expect(run.report.counts).toEqual({
      collected: 22,
      passed: 7,
      skipped: 0,
      failing: 15,
      unreached: 2,
      alreadyFailing: 1,
      collectionErrors: 1,
      crashed: 0,
      timedOut: 0,
    });
    expect(chains(run.report)).not.toHaveProperty('tests/test_pricing.py::test_discount_with_fallback');
  });

  it('streams per-test progress for every pass', () => {
    const phase = (name: string) => run.events.filter((e) => e.type === 'thm.test' && e.phase === name);
    // Twins and worlds collect on the original code, where tests/test_constants.py imports fine.
    const original = kind !== 'two passes';
    expect(phase('probe')).toHaveLength(original ? 23 : 22);
    // Two passes re-run the 15 tests that failed blank (and the module that failed to import,
    // whose one test then runs) on the original code; so do the worlds (the 15 in the original
    // world's lanes, the module after its blank re-run). Twins re-run blank only what they could
    // not see: the test whose subprocess called the target, the module that called it at import.
    expect(phase('original')).toHaveLength(twins ? 0 : 16);
    expect(phase('blank').map((e) => e.type === 'thm.test' && e.nodeid)).toEqual(
      twins ? ['tests/test_pricing.py::test_discount_from_a_subprocess'] : [],
    );
    expect(run.events.find((e) => e.type === 'thm.collected')).toMatchObject({
      phase: 'probe',
      total: original ? 23 : 22,
    });
    // While collecting, the files found so far; at the end of the pass, the last tests running, then none.
    expect(run.events.find((e) => e.type === 'thm.collecting')).toMatchObject({ phase: 'probe', files: 1 });
    const running = run.events.filter((e) => e.type === 'thm.running' && e.phase === 'probe');
    expect(running.some((e) => e.type === 'thm.running' && e.tests.length > 0)).toBe(true);
    expect(running.at(-1)).toMatchObject({ tests: [] });
    expect(run.report.twins).toBe(twins);
  });

  it('keeps the failure output as seen with the target blank', () => {
    const basic = run.report.failing.find((f) => f.nodeid === 'tests/test_pricing.py::test_apply_discount_basic')!;
    expect(basic.message).toBe('NotImplementedError');
    expect(basic.longrepr).toContain('apply_discount(100.0, 15)');
  });

  it('never touches the checkout', () => {
    expect(treeHash(SHOP)).toBe(before);
  });
});

describe('THM selection budget and other targets', () => {
  it('fills a budget larger than the number of clusters by (depth, nodeid)', async () => {
    const { report } = await thmOn(SHOP, TARGET, { blank: true, T: 12 });
    // 11 clusters, then the budget is filled by (depth, nodeid).
    // (test_catalogue_scarf, which fails through a cached fixture, is not a candidate.)
    expect(report.selected.slice(11)).toEqual(['tests/test_cart.py::CartTest::test_receipt']);
    expect(report.selected).toHaveLength(12);
  });

  it('a method target: callers through self, through another function, and directly from a unittest test', async () => {
    const { report } = await thmOn(SHOP, 'shop/cart.py::Cart.total', { blank: true });
    expect(report.clusters.map((c) => c.caller)).toEqual([
      'tests/test_cart.py::CartTest.test_total',
      'shop/cart.py::Cart.summary',
      'shop/cart.py::receipt',
    ]);
    expect(chains(report)['tests/test_cart.py::CartTest::test_summary']).toEqual([
      'tests/test_cart.py::CartTest.test_summary',
      'shop/cart.py::Cart.summary',
      'shop/cart.py::Cart.total',
    ]);
  });

  it('a decorated target: the decorator wrapper is a frame of the chain, and the test that uses the target its direct caller', async () => {
    const { report } = await thmOn(SHOP, 'shop/pricing.py::loyalty_points', { blank: true });
    expect(chains(report)).toEqual({
      'tests/test_loyalty.py::test_points': [
        'tests/test_loyalty.py::test_points',
        'shop/decorators.py::non_negative.<locals>.wrapper',
        'shop/pricing.py::loyalty_points',
      ],
      'tests/test_loyalty.py::test_points_rate': [
        'tests/test_loyalty.py::test_points_rate',
        'shop/decorators.py::non_negative.<locals>.wrapper',
        'shop/pricing.py::loyalty_points',
      ],
    });
    expect(report.clusters.map((c) => c.caller)).toEqual([
      'tests/test_loyalty.py::test_points',
      'tests/test_loyalty.py::test_points_rate',
    ]);
    // test_negative_amount passes blanked: the wrapper raises ValueError before the target runs.
    expect(report.counts.failing).toBe(2);
  });

  it('a pytest scope from --tests (-k) narrows the suite', async () => {
    const { report } = await thmOn(SHOP, TARGET, { blank: true, testArgs: ['tests/test_pricing.py', '-k', 'bulk'] });
    expect(report.counts.collected).toBe(2);
    expect(report.failing.map((f) => f.nodeid)).toEqual([
      'tests/test_pricing.py::test_bulk_prices',
      'tests/test_pricing.py::test_bulk_total',
    ]);
  });

  it('shards the suite over several pytest processes with the same result', async () => {
    const one = await thmOn(SHOP, TARGET, { blank: true, jobs: 1 });
    const three = await thmOn(SHOP, TARGET, { blank: true, jobs: 3 });
    expect(three.report.shards).toBe(3);
    const shape = (run: typeof one) =>
      run.report.failing.map(({ nodeid, chain, caller, depth, entryKind }) => ({
        nodeid,
        chain,
        caller,
        depth,
        entryKind,
      }));
    expect(shape(three)).toEqual(shape(one));
    expect(three.report.selected).toEqual(one.report.selected);
    expect(three.report.counts).toEqual(one.report.counts);
  });
});
