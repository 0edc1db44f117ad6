import { createHash } from 'node:crypto';
import { testSource } from '../python-source/test-source';
import { parsePython } from '../python-source/parser';
import { byPreference, depthOf, distinctFunctionsFirst } from './clustering';
import type { Selection } from '../protocol/settings';
import type { ThmReport } from '../protocol/thm-report';

/**
 * The TENET paper's RQ4: THM's selection against four strategies that favour one property of a
 * test. `random` (seeded by the task, so a rerun picks the same), `shortest` / `longest` call
 * chain without clustering, `most-assertions`. All pick among the reached failing tests (tests
 * that never reach the target are left out, as THM does), then fill up with unreached ones. As in
 * THM's selection, a second variant of a parametrized test comes after the first variant of every
 * other test function (within the reached ones, and within the unreached).
 */
const byNodeid = (a: { nodeid: string }, b: { nodeid: string }) =>
  a.nodeid < b.nodeid ? -1 : a.nodeid > b.nodeid ? 1 : 0;

/** A number in [0, 1) from a string: a seeded order that does not depend on Math.random. */
function hashUnit(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0) / 2 ** 32;
}

/** Assertions in a test's source: `assert` statements, `self.assert…(` calls and `pytest.raises`/`warns` blocks. */
export async function countAssertions(source: string): Promise<number> {
  const tree = await parsePython(source);
  try {
    let count = tree.rootNode.descendantsOfType('assert_statement').length;
    for (const call of tree.rootNode.descendantsOfType('call')) {
      const callee = call?.childForFieldName('function')?.text ?? '';
      if (/(^|\.)assert\w*$/i.test(callee) || /(^|\.)(raises|warns|deprecated_call)$/.test(callee)) count++;
    }
    return count;
  } finally {
    tree.delete();
  }
}

/** The tests the agent gets under a selection strategy, at most T of them. */
export async function selectWith(
  strategy: Selection,
  report: ThmReport,
  T: number,
  options: { workspaceRoot: string; seed?: string },
): Promise<string[]> {
  if (strategy === 'thm') return report.selected;
  const limit = Number.isFinite(T) ? T : report.failing.length;
  const reached = report.failing.filter((f) => f.reached);
  const unreached = report.failing.filter((f) => !f.reached).sort(byNodeid);
  let ordered: typeof reached;
  switch (strategy) {
    case 'random': {
      const seed = options.seed ?? report.target;
      ordered = [...reached].sort((a, b) => hashUnit(`${seed}\0${a.nodeid}`) - hashUnit(`${seed}\0${b.nodeid}`));
      break;
    }
    case 'shortest':
      ordered = [...reached].sort(byPreference);
      break;
    case 'longest':
      ordered = [...reached].sort((a, b) => depthOf(b) - depthOf(a) || byNodeid(a, b));
      break;
    case 'most-assertions': {
      const counts = new Map<string, number>();
      for (const test of reached) {
        const source = await testSource(options.workspaceRoot, test.nodeid);
        counts.set(test.nodeid, source ? await countAssertions(source) : 0);
      }
      ordered = [...reached].sort((a, b) => counts.get(b.nodeid)! - counts.get(a.nodeid)! || byNodeid(a, b));
      break;
    }
  }
  const nodeids = (tests: typeof reached) => distinctFunctionsFirst(tests);
  return [...nodeids(ordered), ...nodeids(unreached)].slice(0, limit);
}
