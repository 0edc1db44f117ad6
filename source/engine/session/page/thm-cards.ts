import { naturalOrder } from '../../util/natural-order';
import { capitalized, hiddenWords } from '../../phrase-book';
import type { ThmFailingTest, ThmReport } from '../../protocol/thm-report';
import type { SessionPageData } from '../page-data';
import { chip, clean, code, fold, h, lazy, textBlock } from './dom';
import { duration, frameName, integer, outcomeClass, counted, shortTest } from './format';
import { isHuman } from './timeline';
import { head, itemOf, itemsOf, type Card, type CardView, type Item } from './types';

// The cards of THM and of the tests given to the agent: THM's run and report, the approval, the
// developer's own tests, and the tests hidden from the agent.

export function thmCard(items: Item[]): CardView {
  const reportEvent = itemOf(items, 'thm.report');
  if (!reportEvent) {
    const phase = itemsOf(items, 'thm.phase').at(-1);
    const since = phase ? items.indexOf(phase) : 0;
    const tests = itemsOf(items.slice(since), 'thm.test');
    const collected = itemsOf(items, 'thm.collected').at(-1);
    const total = phase?.e.tests || collected?.e.total || 0;
    const failing = tests.filter((x) => outcomeClass(x.e.outcome) === 'fail').length;
    return {
      title: 'Test Harness Mechanism',
      meta: 'running',
      body: h(
        'p',
        null,
        `${phase ? `${phase.e.phase} pass: ` : 'starting: '}${integer(tests.length)}${total ? ` of ${integer(total)}` : ''} tests run, ${integer(failing)} failing`,
      ),
    };
  }
  const r: Partial<ThmReport> = reportEvent.e.report || {};
  const failing = new Map((r.failing || []).map((t) => [t.nodeid, t]));
  const selected = new Set(r.selected || []);
  const clusters = r.clusters || [];
  const unreached = (r.failing || []).filter((t) => !t.reached);
  const others = r.otherFailures || [];
  return {
    title: 'Test Harness Mechanism',
    meta: duration(r.durationMs),
    body: h(
      'div',
      null,
      h(
        'p',
        null,
        `${integer(r.counts?.collected)} tests in scope, ${integer(r.counts?.failing)} failing (${integer(r.counts?.unreached)} without reaching the target), ${counted(clusters.length, 'cluster')} by the target's direct caller. THM proposes ${counted(selected.size, 'test')}${r.T === null ? '' : ` (T=${r.T})`}: one per cluster, shortest chain first.`,
      ),
      clustersView(clusters, failing, selected),
      unreached.length
        ? fold(
            `${counted(unreached.length, 'failing test')} that never reached the target`,
            h(
              'ul',
              { class: 'plain' },
              unreached.map((t) => h('li', null, code(t.nodeid), ' ', clean(t.message || ''))),
            ),
          )
        : null,
      // Stub mode: tests that fail without the target (another stub, a broken helper), apart: no part of the verdict.
      others.length
        ? fold(
            `${counted(others.length, 'test')} failing for another reason (not the target's; left out of the verdict)`,
            h(
              'ul',
              { class: 'plain' },
              others.map((t) =>
                h(
                  'li',
                  null,
                  code(t.nodeid),
                  ' ',
                  t.stoppedAt ? `stops in ${t.stoppedAt.name} (line ${t.stoppedAt.line}): ` : '',
                  clean(t.message || ''),
                ),
              ),
            ),
          )
        : null,
      r.warnings?.length
        ? h(
            'ul',
            { class: 'warnings' },
            r.warnings.map((w) => h('li', null, clean(w))),
          )
        : null,
    ),
  };
}

type Cluster = ThmReport['clusters'][number];

const CLUSTERS_SHOWN = 5;
const TESTS_SHOWN = 5;

/** The clusters with a proposed test, and others up to five; the rest one click away. */
function clustersView(
  clusters: readonly Cluster[],
  failing: ReadonlyMap<string, ThmFailingTest>,
  selected: ReadonlySet<string>,
): HTMLElement {
  const proposedIn = (c: Cluster) => (c.tests || []).some((id) => selected.has(id));
  let room = Math.max(0, CLUSTERS_SHOWN - clusters.filter(proposedIn).length);
  const shown: Cluster[] = [];
  const more: Cluster[] = [];
  for (const c of clusters) {
    if (proposedIn(c)) shown.push(c);
    else if (room > 0) {
      shown.push(c);
      room--;
    } else more.push(c);
  }
  return h(
    'div',
    { class: 'clusters' },
    shown.map((c) => clusterView(c, failing, selected)),
    more.length
      ? fold(
          `${counted(more.length, 'more cluster')}`,
          h(
            'div',
            { class: 'clusters' },
            more.map((c) => clusterView(c, failing, selected)),
          ),
        )
      : null,
  );
}

function clusterView(
  cluster: Cluster,
  failing: ReadonlyMap<string, ThmFailingTest>,
  selected: ReadonlySet<string>,
): HTMLElement {
  // THM's order (shortest chain first), and among equals the natural one: `[2]` before `[10]`.
  const depth = (id: string) => failing.get(id)?.depth ?? Infinity;
  const tests = [...(cluster.tests || [])].sort((a, b) => depth(a) - depth(b) || naturalOrder(a, b));
  const item = (id: string) => {
    const test: Partial<ThmFailingTest> = failing.get(id) || { nodeid: id, chain: [] };
    const chain = test.chain || [];
    const lines = test.chainLines || [];
    return h(
      'li',
      { class: selected.has(id) ? 'proposed' : '' },
      h(
        'div',
        { class: 'test-line' },
        selected.has(id) ? chip('proposed', 'sel', 'THM proposes this test') : null,
        code(shortTest(id)),
        h('span', { class: 'file' }, clean(String(id).split('::')[0])),
      ),
      chain.length
        ? h(
            'ol',
            { class: 'chain', title: 'call chain from the test down to the target' },
            chain.map((frame, i) =>
              h(
                'li',
                { title: `${frame}${lines[i] ? `:${lines[i]}` : ''}` },
                clean(frameName(frame)),
                lines[i] ? h('span', { class: 'muted' }, `:${lines[i]}`) : null,
              ),
            ),
          )
        : null,
      test.longrepr
        ? fold(
            'how it fails',
            lazy(() => textBlock(test.longrepr)),
          )
        : null,
    );
  };
  return h(
    'div',
    { class: 'cluster' },
    h(
      'div',
      { class: 'cluster-head', title: cluster.caller },
      // A test that calls the target itself is its own cluster: naming it twice says nothing.
      tests.length === 1 && tests[0] === cluster.caller
        ? 'called by the test itself'
        : [
            'caller ',
            code(frameName(cluster.caller)),
            h('span', { class: 'file' }, ` ${clean(String(cluster.caller).split('::')[0])}`),
          ],
      h('span', { class: 'muted' }, ` · ${counted(tests.length, 'test')} · shortest chain ${cluster.depth}`),
    ),
    h('ul', { class: 'cluster-tests' }, tests.slice(0, TESTS_SHOWN).map(item)),
    tests.length > TESTS_SHOWN
      ? fold(
          `${counted(tests.length - TESTS_SHOWN, 'more test')}`,
          h('ul', { class: 'cluster-tests' }, tests.slice(TESTS_SHOWN).map(item)),
        )
      : null,
  );
}

export function approvalCard(items: Item[], _card: Card, data: SessionPageData): CardView {
  const { i, e } = head(items, 'thm.approval');
  const proposed = data.proposals?.[i] || e.proposed || [];
  const chosen = e.chosen || [];
  const overridden = chosen.join('\n') !== proposed.join('\n');
  // Kept, added and dropped are the developer's doing; --no-thm or TDD simply list what was given.
  const compare = overridden && isHuman(e.by);
  const titles: Record<string, string> = {
    human: overridden ? "The developer overrode THM's choice" : "The developer approved THM's proposal",
    auto: "THM's proposal, approved automatically",
    ablation: 'Every failing test (--no-thm)',
    strategy: "The agent sees none of the repository's tests (TDD)",
  };
  const rows = [
    ...chosen.map((t) =>
      h(
        'li',
        { class: proposed.includes(t) || !compare ? 'kept' : 'added' },
        h('span', { class: 'mark' }, proposed.includes(t) || !compare ? '✓' : '+'),
        code(t),
      ),
    ),
    ...(compare
      ? proposed
          .filter((t) => !chosen.includes(t))
          .map((t) => h('li', { class: 'dropped' }, h('span', { class: 'mark' }, '−'), code(t)))
      : []),
  ];
  return {
    title: titles[e.by] || `Tests chosen (${clean(e.by)})`,
    meta: e.T === null || e.T === undefined ? '' : `T=${e.T}`,
    tone: isHuman(e.by) ? 'human' : '',
    body: h(
      'div',
      null,
      chosen.length ? h('ul', { class: 'choice' }, rows) : h('p', { class: 'muted' }, 'No test given to the agent.'),
      compare
        ? h(
            'p',
            { class: 'legend muted' },
            '✓ proposed by THM and kept · + added by the developer · − proposed, left out',
          )
        : null,
    ),
  };
}

export function developerTestsCard(items: Item[]): CardView {
  const { e } = head(items, 'tests.added');
  const accepted = e.accepted || [];
  const rejected = e.rejected || [];
  const removed = e.removed || [];
  const chain = (test: ThmFailingTest) =>
    test.chain?.length
      ? h(
          'ol',
          { class: 'chain', title: 'call chain from the test down to the target' },
          test.chain.map((frame) => h('li', { title: frame }, clean(frameName(frame)))),
        )
      : h('span', { class: 'muted' }, ' (never reaches the target)');
  return {
    title: 'The developer wrote tests',
    meta: [
      `${accepted.length} joined`,
      rejected.length ? `${rejected.length} kept out` : '',
      removed.length ? `${removed.length} no longer fail` : '',
    ]
      .filter(Boolean)
      .join(' · '),
    tone: 'human',
    body: h(
      'div',
      null,
      accepted.length
        ? h(
            'ul',
            { class: 'choice' },
            accepted.map((t) =>
              h('li', { class: 'added' }, h('span', { class: 'mark' }, '+'), code(t.nodeid), chain(t)),
            ),
          )
        : h('p', { class: 'muted' }, 'None of them fails on the stub: none joins.'),
      rejected.length
        ? h(
            'ul',
            { class: 'choice' },
            rejected.map((r) =>
              h(
                'li',
                { class: 'dropped' },
                h('span', { class: 'mark' }, '✗'),
                code(r.nodeid),
                ' ',
                h('span', { class: 'muted' }, clean(r.reason)),
              ),
            ),
          )
        : null,
      removed.length
        ? h(
            'ul',
            { class: 'choice' },
            removed.map((id) =>
              h(
                'li',
                { class: 'dropped' },
                h('span', { class: 'mark' }, '−'),
                code(id),
                ' ',
                h('span', { class: 'muted' }, 'no longer fails'),
              ),
            ),
          )
        : null,
      (e.files || []).map((f) =>
        fold(
          f.path,
          lazy(() => textBlock(f.content, 'code')),
        ),
      ),
    ),
  };
}

export function hiddenCard(items: Item[]): CardView {
  const { e } = head(items, 'tests.hidden');
  const hidden = e.hidden || [];
  return {
    title: capitalized(hiddenWords(e)),
    compact: true,
    body: hidden.length
      ? fold(
          'which',
          h(
            'ul',
            { class: 'plain' },
            hidden.map((t) => h('li', null, code(t))),
          ),
        )
      : null,
  };
}
