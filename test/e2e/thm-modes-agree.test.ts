import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCAL, type SandboxSpec } from '../../source/engine/sandbox/create-sandbox';
import type { ThmReport } from '../../source/engine/protocol/thm-report';
import { FIXTURES } from '../helpers/fixtures';
import { DOCKER, DOCKER_PROBLEM } from '../helpers/sandboxes';
import { thmOn } from '../helpers/thm';

// Issue 12, "Done means": twin mode, two passes (--two-pass) and the Docker sandbox (Debian's
// Python and pytest 7, twin mode) give the same report on a fixture for each idiom: generator
// targets, @overload stubs, cached fixtures, xfail and skip marks. So do both worlds from one
// collection in forked lanes (issue 17: what `--jobs auto` does on two or more cores).
const CASES: [string, string][] = [
  ['generators', 'gens/windows.py::windowed'],
  ['overloads', 'overloads/locate.py::locate_app'],
  ['cached', 'store/connect.py::connect'],
  ['xfails', 'xf/parse.py::parse_int'],
];

type Mode = { onePass: boolean; worlds?: boolean; sandbox: SandboxSpec };
const MODES: [string, Mode][] = [
  ['twins', { onePass: true, sandbox: LOCAL }],
  ['--two-pass', { onePass: false, sandbox: LOCAL }],
  ['worlds from one collection', { onePass: true, worlds: true, sandbox: LOCAL }],
  ...(DOCKER_PROBLEM
    ? []
    : ([
        ['--sandbox docker', { onePass: true, sandbox: DOCKER }],
        ['worlds from one collection in Docker', { onePass: true, worlds: true, sandbox: DOCKER }],
      ] as [string, Mode][])),
];

/** What must not depend on the mode: every failing test as THM sees it, the clusters, the proposal, the counts. */
function decision(report: ThmReport) {
  return {
    failing: report.failing.map(
      ({ nodeid, reached, chain, caller, depth, entryKind, failsThrough, outcome, phase }) => ({
        nodeid,
        reached,
        chain,
        caller,
        depth,
        entryKind,
        failsThrough,
        outcome,
        phase,
      }),
    ),
    clusters: report.clusters,
    selected: report.selected,
    counts: report.counts,
  };
}

describe.each(CASES)('twins, --two-pass and Docker agree on the %s fixture', (fixture, target) => {
  it(`give the same failing tests, chains, clusters and selection (${MODES.map(([name]) => name).join(', ')})`, async () => {
    const decisions: [string, ReturnType<typeof decision>][] = [];
    for (const [name, mode] of MODES) {
      const { report } = await thmOn(join(FIXTURES, fixture), target, { blank: true, jobs: 1, ...mode });
      expect(report.twins).toBe(mode.onePass && !mode.worlds);
      expect(!!report.worlds).toBe(!!mode.worlds);
      decisions.push([name, decision(report)]);
    }
    const [, first] = decisions[0]!;
    expect(first.failing.length).toBeGreaterThan(0);
    for (const [name, other] of decisions.slice(1)) expect({ name, ...other }).toEqual({ name, ...first });
  }, 180_000);
});
