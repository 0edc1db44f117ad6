// One renderer per kind of card. Each gets the events of its card that had happened at the
// player's position and returns { title, meta, tone, body }. A kind this page does not know (an
// event type added to tenet after the page was written) is drawn generically, never dropped.

const PHASES = {
  pregen: (e) => `Pre-generation${e.rounds ? ` · up to ${e.rounds} rounds` : ''}`,
  validate: (e) => `Validation against the selected tests${e.attempt ? ` · after refinement ${e.attempt}` : ''}`,
  rrw: (e) => `Refinement attempt ${e.attempt ?? '?'}${e.attempts ? `/${e.attempts}` : ''}${e.stage ? ` · ${String(e.stage).replace(/-/g, ' ')}` : ''}`,
  'tdd-setup': (e) => `Tests first${e.rounds ? ` · up to ${e.rounds} rounds` : ''}`,
  tdd: (e) => `Co-refinement · test run ${e.round ?? '?'}${e.rounds ? `/${e.rounds}` : ''}`,
  evaluate: () => 'Evaluation on every failing test',
  quality: () => "Measuring the agent's tests",
};

const PURPOSE_TITLES = { validate: 'Validation: the selected tests', evaluate: 'Evaluation: every failing test', agent: 'The agent ran the tests' };

/** Facts as a two-column list; empty values are left out. */
function facts(rows) {
  const dl = h('dl', { class: 'facts' });
  for (const [term, value] of rows) if (value !== undefined && value !== null && value !== '') dl.append(h('dt', null, clean(term)), h('dd', null, typeof value === 'string' ? clean(value) : value));
  return dl;
}

const code = (text) => h('code', null, clean(text));
const pretty = (value) => JSON.stringify(value, null, 2);

/** A qualified frame (`path.py::Class.method`) shown by its name; the path goes in the title. */
function frameName(frame) {
  const parts = String(frame).split('::');
  return parts.length > 1 ? parts.slice(1).join('::') : String(frame);
}

function testRows(outcomes) {
  return h(
    'div',
    { class: 'grid' },
    Object.keys(outcomes).map((id) => {
      const outcome = String(outcomes[id]);
      return h('div', { class: `grid-row ${outcomeClass(outcome)}`, title: `${id}: ${outcome}` }, h('span', { class: 'dot' }), h('span', { class: 'test' }, clean(shortTest(id))), h('span', { class: 'file' }, clean(String(id).split('::')[0])), h('span', { class: 'outcome' }, clean(outcome)));
    }),
  );
}

function testsRunBody(run) {
  return h('div', null, testRows(run.outcomes || {}), run.report ? fold('pytest report', lazy(() => textBlock(run.report))) : null);
}

function sessionCard(items) {
  const e = items[0].e;
  const config = e.config || {};
  const budget = config.budget || {};
  return {
    title: 'Session started',
    meta: e.ts ? new Date(recordedAt(e)).toISOString().replace('T', ' ').slice(0, 19) + ' UTC' : '',
    body: h(
      'div',
      null,
      facts([
        ['target', code(e.target)],
        ['mode', e.mode === 'blank' ? 'benchmark (the body was blanked; the original is ground truth)' : 'stub (the developer wrote the signature, docstring and tests)'],
        ['strategy', clean(e.strategy)],
        ['model', clean(e.modelLabel || e.model)],
        ['provider', clean(e.provider)],
        ['repository', code(e.repo)],
        ['tests given (T)', config.T === null ? 'all' : config.T],
        ['budget', budget.pregenRounds ? `${budget.pregenRounds} rounds of pre-generation, ${budget.rrwAttempts} refinement attempts of ${budget.rrwRounds} rounds` : ''],
        ['sandbox', config.sandbox && config.sandbox.kind],
        ['limits', config.limits ? [config.limits.maxCostUsd !== undefined ? `${dollars(config.limits.maxCostUsd)}` : '', config.limits.maxTokens !== undefined ? `${integer(config.limits.maxTokens)} tokens` : ''].filter(Boolean).join(', ') : ''],
      ]),
      fold('every setting', h('pre', { class: 'code' }, clean(pretty(config)))),
    ),
  };
}

function thmCard(items) {
  const reportEvent = items.find((x) => x.e.type === 'thm.report');
  if (!reportEvent) {
    const phase = [...items].reverse().find((x) => x.e.type === 'thm.phase');
    const since = phase ? items.indexOf(phase) : 0;
    const tests = items.slice(since).filter((x) => x.e.type === 'thm.test');
    const collected = [...items].reverse().find((x) => x.e.type === 'thm.collected');
    const total = (phase && phase.e.tests) || (collected && collected.e.total) || 0;
    const failing = tests.filter((x) => outcomeClass(x.e.outcome) === 'fail').length;
    return {
      title: 'Test Harness Mechanism',
      meta: 'running',
      body: h('p', null, `${phase ? `${phase.e.phase} pass: ` : 'starting: '}${integer(tests.length)}${total ? ` of ${integer(total)}` : ''} tests run, ${integer(failing)} failing`),
    };
  }
  const r = reportEvent.e.report || {};
  const counts = r.counts || {};
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
      h('p', null, `${integer(counts.collected)} tests in scope, ${integer(counts.failing)} failing (${integer(counts.unreached)} without reaching the target), ${plural(clusters.length, 'cluster')} by the target's direct caller. THM proposes ${plural(selected.size, 'test')}${r.T === null ? '' : ` (T=${r.T})`}: one per cluster, shortest chain first.`),
      clustersView(clusters, failing, selected),
      unreached.length ? fold(`${plural(unreached.length, 'failing test')} that never reached the target`, h('ul', { class: 'plain' }, unreached.map((t) => h('li', null, code(t.nodeid), ' ', clean(t.message || ''))))) : null,
      // Stub mode: tests that fail without the target (another stub, a broken helper), apart: no part of the verdict.
      others.length ? fold(`${plural(others.length, 'test')} failing for another reason (not the target's; left out of the verdict)`, h('ul', { class: 'plain' }, others.map((t) => h('li', null, code(t.nodeid), ' ', t.stoppedAt ? `stops in ${t.stoppedAt.name} (line ${t.stoppedAt.line}): ` : '', clean(t.message || ''))))) : null,
      (r.warnings || []).length ? h('ul', { class: 'warnings' }, r.warnings.map((w) => h('li', null, clean(w)))) : null,
    ),
  };
}

const CLUSTERS_SHOWN = 5;
const TESTS_SHOWN = 5;

/** The clusters with a proposed test, and others up to five; the rest one click away. */
function clustersView(clusters, failing, selected) {
  const proposedIn = (c) => (c.tests || []).some((id) => selected.has(id));
  let room = Math.max(0, CLUSTERS_SHOWN - clusters.filter(proposedIn).length);
  const shown = [];
  const more = [];
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
    more.length ? fold(`${plural(more.length, 'more cluster')}`, h('div', { class: 'clusters' }, more.map((c) => clusterView(c, failing, selected)))) : null,
  );
}

function clusterView(cluster, failing, selected) {
  const tests = cluster.tests || [];
  const item = (id) => {
    const test = failing.get(id) || { nodeid: id, chain: [] };
    const chain = test.chain || [];
    const lines = test.chainLines || [];
    return h(
      'li',
      { class: selected.has(id) ? 'proposed' : '' },
      h('div', { class: 'test-line' }, selected.has(id) ? chip('proposed', 'sel', 'THM proposes this test') : null, code(shortTest(id)), h('span', { class: 'file' }, clean(String(id).split('::')[0]))),
      chain.length
        ? h(
            'ol',
            { class: 'chain', title: 'call chain from the test down to the target' },
            chain.map((frame, i) => h('li', { title: `${frame}${lines[i] ? `:${lines[i]}` : ''}` }, clean(frameName(frame)), lines[i] ? h('span', { class: 'muted' }, `:${lines[i]}`) : null)),
          )
        : null,
      test.longrepr ? fold('how it fails', lazy(() => textBlock(test.longrepr))) : null,
    );
  };
  return h(
    'div',
    { class: 'cluster' },
    h(
      'div',
      { class: 'cluster-head', title: cluster.caller },
      // A test that calls the target itself is its own cluster: naming it twice says nothing.
      tests.length === 1 && tests[0] === cluster.caller ? 'called by the test itself' : ['caller ', code(frameName(cluster.caller)), h('span', { class: 'file' }, ` ${clean(String(cluster.caller).split('::')[0])}`)],
      h('span', { class: 'muted' }, ` · ${plural(tests.length, 'test')} · shortest chain ${cluster.depth}`),
    ),
    h('ul', { class: 'cluster-tests' }, tests.slice(0, TESTS_SHOWN).map(item)),
    tests.length > TESTS_SHOWN ? fold(`${plural(tests.length - TESTS_SHOWN, 'more test')}`, h('ul', { class: 'cluster-tests' }, tests.slice(TESTS_SHOWN).map(item))) : null,
  );
}

function approvalCard(items, card, data) {
  const { i, e } = items[0];
  const proposed = (data.proposals || {})[i] || e.proposed || [];
  const chosen = e.chosen || [];
  const overridden = chosen.join('\n') !== proposed.join('\n');
  // Kept, added and dropped are the developer's doing; --no-thm or TDD simply list what was given.
  const compare = overridden && isHuman(e.by);
  const titles = {
    human: overridden ? "The developer overrode THM's choice" : "The developer approved THM's proposal",
    auto: "THM's proposal, approved automatically",
    ablation: 'Every failing test (--no-thm)',
    strategy: "The agent sees none of the repository's tests (TDD)",
  };
  const rows = [
    ...chosen.map((t) => h('li', { class: proposed.includes(t) || !compare ? 'kept' : 'added' }, h('span', { class: 'mark' }, proposed.includes(t) || !compare ? '✓' : '+'), code(t))),
    ...(compare ? proposed.filter((t) => !chosen.includes(t)).map((t) => h('li', { class: 'dropped' }, h('span', { class: 'mark' }, '−'), code(t))) : []),
  ];
  return {
    title: titles[e.by] || `Tests chosen (${clean(e.by)})`,
    meta: e.T === null || e.T === undefined ? '' : `T=${e.T}`,
    tone: isHuman(e.by) ? 'human' : '',
    body: h('div', null, chosen.length ? h('ul', { class: 'choice' }, rows) : h('p', { class: 'muted' }, 'No test given to the agent.'), compare ? h('p', { class: 'legend muted' }, '✓ proposed by THM and kept · + added by the developer · − proposed, left out') : null),
  };
}

function turnCard(items) {
  const request = items.find((x) => x.e.type === 'model.request');
  const response = items.find((x) => x.e.type === 'model.response');
  const retries = items.filter((x) => x.e.type === 'model.retry');
  const streamed = items.filter((x) => x.e.type === 'model.delta').map((x) => x.e.text).join('');
  const r = response && response.e;
  const prompts = request ? (request.e.newMessages || []).filter((m) => m.role === 'user') : [];
  const toolCalls = (r && r.toolCalls) || [];
  const usage = (r && r.usage) || {};
  return {
    title: `Model${request ? ` · round ${request.e.round}` : ''}`,
    meta: r ? `${integer(usage.inputTokens)} in · ${integer(usage.outputTokens)} out${r.costUsd ? ` · ${dollars(r.costUsd)}` : ''}${r.durationMs ? ` · ${duration(r.durationMs)}` : ''}` : 'answering…',
    body: h(
      'div',
      null,
      request && request.e.system ? fold('system prompt', lazy(() => textBlock(request.e.system, 'code'))) : null,
      prompts.map((m) => fold(`prompt (${plural(String(m.content).split('\n').length, 'line')})`, lazy(() => textBlock(m.content, 'code')))),
      retries.map((x) => h('p', { class: 'note warning' }, `The call failed (${clean(x.e.reason)}); retry ${x.e.attempt} of ${Math.max(1, (x.e.maxAttempts || 1) - 1)} in ${duration(x.e.delayMs)}.`)),
      r ? (r.content && r.content.trim() ? prose(r.content) : null) : streamed ? h('div', { class: 'streaming' }, prose(streamed)) : h('p', { class: 'muted' }, 'Waiting for the model…'),
      toolCalls.length ? h('div', { class: 'calls' }, 'calls ', toolCalls.map((c) => chip(clean(c.name), 'tool'))) : null,
      r && !(r.content && r.content.trim()) && !toolCalls.length ? h('p', { class: 'muted' }, 'An empty answer.') : null,
    ),
  };
}

/** The argument worth a headline: a file, a command, a name. */
function argumentSummary(args) {
  if (!args || typeof args !== 'object') return '';
  for (const key of ['cmd', 'command', 'file_name', 'path', 'method_name', 'class_name', 'search_string', 'query', 'reason']) {
    if (typeof args[key] === 'string') return args[key];
  }
  const first = Object.values(args).find((v) => typeof v === 'string' && !v.includes('\n'));
  return first || '';
}

function argumentsView(raw) {
  let args;
  try {
    args = JSON.parse(raw || '{}');
  } catch {
    return { args: undefined, hasLong: false, view: h('div', null, h('p', { class: 'note warning' }, 'Arguments that are not JSON, as the model sent them:'), textBlock(raw, 'code')) };
  }
  if (!args || typeof args !== 'object' || Array.isArray(args)) return { args: undefined, hasLong: false, view: textBlock(pretty(args), 'code') };
  const long = Object.entries(args).filter(([, v]) => typeof v === 'string' && (v.includes('\n') || v.length > 120));
  const short = Object.entries(args).filter(([k]) => !long.some(([l]) => l === k));
  return {
    args,
    hasLong: long.length > 0,
    view: h('div', { class: 'args' }, short.length ? facts(short.map(([k, v]) => [k, code(typeof v === 'string' ? v : JSON.stringify(v))])) : null, long.map(([k, v]) => h('div', null, h('div', { class: 'label' }, k), lazy(() => textBlock(v, 'code'))))),
  };
}

/**
 * The developer's edit of a call before it ran (step mode). An edit of its code is a diff against
 * the model's code (computed with the page, as the TUI's transcript shows it); of other arguments,
 * the note, with the model's arguments folded.
 */
function editView(edit, data) {
  const code = (data.edits || {})[edit.i];
  return h(
    'div',
    { class: 'edited' },
    code
      ? h('div', null, h('p', { class: 'note' }, "The developer changed the model's code before it ran (", diffCounts(code.added, code.removed), "); it ran with theirs:"), diffView(code.hunks))
      : h('p', { class: 'note' }, 'The developer changed the arguments before it ran; it ran with the ones below.'),
    fold("the model's arguments", argumentsView(edit.e.original).view),
  );
}

function toolCard(items, card, data) {
  const call = items.find((x) => x.e.type === 'tool.call');
  const edit = items.find((x) => x.e.type === 'tool.edit');
  const result = items.find((x) => x.e.type === 'tool.result');
  const run = items.find((x) => x.e.type === 'tests.run');
  const inputs = items.filter((x) => x.e.type === 'debugger.input');
  // It ran with the developer's arguments when they edited the call (step mode).
  const ran = edit ? edit.e.arguments : call && call.e.arguments;
  const { args, view, hasLong } = ran !== undefined ? argumentsView(ran) : { args: undefined, view: null, hasLong: false };
  const name = (call && call.e.name) || (result && result.e.name) || card.name || 'tool';
  const summary = argumentSummary(args);
  const status = result ? (result.e.ok ? '' : 'error') : '';
  return {
    title: h('span', null, h('span', { class: 'tool-name' }, clean(name)), summary ? h('span', { class: 'tool-arg' }, clean(summary.length > 140 ? `${summary.slice(0, 140)}…` : summary)) : null, edit ? chip('edited by the developer', 'human', 'the developer changed the arguments before it ran') : null),
    meta: result ? `${result.e.ok ? 'ok' : 'error'} · ${duration(result.e.durationMs)}` : 'running…',
    tone: status || (edit ? 'human' : ''),
    body: h(
      'div',
      null,
      edit ? editView(edit, data) : null,
      inputs.length ? h('div', { class: 'typed' }, inputs.map((x) => h('div', null, h('span', { class: 'prompt' }, x.e.mode === 'pdb' ? '(Pdb) ' : '$ '), clean(x.e.input)))) : fold('arguments', view, !summary && !hasLong),
      run ? h('div', { class: 'attached-run' }, h('div', { class: 'label' }, `${run.e.passed}/${run.e.total} passed`), testRows(run.e.outcomes || {})) : null,
      result ? h('div', { class: 'result' }, h('div', { class: 'label' }, result.e.ok ? 'output' : 'error'), lazy(() => textBlock(result.e.text))) : h('p', { class: 'muted' }, 'No output yet.'),
    ),
  };
}

function submissionCard(items, card, data) {
  const { i, e } = items[0];
  const diff = (data.diffs || {})[i];
  const tests = e.type === 'tests.submission';
  const title = tests ? `The agent's tests, version ${diff ? diff.number : '?'}` : `Submission ${diff ? diff.number : ''}`;
  return {
    title: h('span', null, title.trim(), tests && e.path ? h('span', { class: 'tool-arg' }, clean(e.path)) : null),
    meta: h('span', null, diff ? diffCounts(diff.added, diff.removed) : null, diff ? ` against the ${diff.against}` : '', e.ok ? '' : ' · rejected'),
    tone: e.ok ? 'submission' : 'error',
    body: h('div', null, e.message ? h('p', { class: e.ok ? 'muted' : 'note warning' }, clean(e.message)) : null, lazy(() => (diff ? diffView(diff.hunks) : textBlock(e.code, 'code')))),
  };
}

function testsCard(items) {
  const e = items[0].e;
  return {
    title: PURPOSE_TITLES[e.purpose] || `Tests (${clean(e.purpose)})`,
    meta: `${e.passed}/${e.total} passed`,
    tone: e.total && e.passed === e.total ? 'pass' : 'fail',
    body: testsRunBody(e),
  };
}

function commandCard(items) {
  const e = items[0].e;
  const verbs = { approved: 'allowed the command', 'approved-session': 'allowed the command, and every later one', denied: 'refused the command', stopped: 'stopped the agent at the command' };
  const verb = verbs[e.decision] || clean(e.decision);
  return {
    title: isHuman(e.by) ? `The developer ${verb}` : `${verb[0].toUpperCase()}${verb.slice(1)}, without asking anyone`,
    tone: isHuman(e.by) ? 'human' : '',
    body: h('div', null, h('pre', { class: 'code' }, `$ ${clean(e.command)}`), e.reason ? h('p', null, 'Reason: ', clean(e.reason)) : null),
  };
}

function debuggerCard(items, card) {
  const human = card.kind === 'human-debugger';
  const lines = [];
  for (const { e } of items) {
    if (e.type === 'debugger.input') lines.push(h('div', { class: isHuman(e.who) ? 'typed human' : 'typed' }, h('span', { class: 'prompt' }, e.mode === 'pdb' ? '(Pdb) ' : '$ '), clean(e.input)));
    else if (e.type === 'debugger.output') lines.push(document.createTextNode(clean(e.chunk)));
  }
  const entry = items.find((x) => x.e.type === 'debugger.entry');
  if (!items.some((x) => x.e.type === 'debugger.input') && entry) {
    lines.push(h('div', { class: 'typed human' }, h('span', { class: 'prompt' }, entry.e.entry.mode === 'pdb' ? '(Pdb) ' : '$ '), clean(entry.e.entry.input)), document.createTextNode(clean(entry.e.entry.output)));
  }
  return {
    title: human ? 'The developer typed in the debugger' : items.some((x) => x.e.type === 'debugger.input' && x.e.who === 'tenet') ? "Debugger: tenet started pdb for the developer's takeover" : 'Debugger',
    tone: human ? 'human' : '',
    body: h('pre', { class: 'output transcript' }, lines),
  };
}

const VIA = { file: 'from the message file', fork: 'when the session was forked' };

function messageCard(items) {
  const e = items[0].e;
  return {
    title: 'The developer wrote to the model',
    meta: [`with request ${e.round}`, VIA[e.via]].filter(Boolean).join(' · '),
    tone: 'human',
    body: prose(e.text || ''),
  };
}

function developerTestsCard(items) {
  const e = items[0].e;
  const accepted = e.accepted || [];
  const rejected = e.rejected || [];
  const removed = e.removed || [];
  const chain = (test) => ((test.chain || []).length ? h('ol', { class: 'chain', title: 'call chain from the test down to the target' }, test.chain.map((frame) => h('li', { title: frame }, clean(frameName(frame))))) : h('span', { class: 'muted' }, ' (never reaches the target)'));
  return {
    title: 'The developer wrote tests',
    meta: [`${accepted.length} joined`, rejected.length ? `${rejected.length} kept out` : '', removed.length ? `${removed.length} no longer fail` : ''].filter(Boolean).join(' · '),
    tone: 'human',
    body: h(
      'div',
      null,
      accepted.length ? h('ul', { class: 'choice' }, accepted.map((t) => h('li', { class: 'added' }, h('span', { class: 'mark' }, '+'), code(t.nodeid), chain(t)))) : h('p', { class: 'muted' }, 'None of them fails on the stub: none joins.'),
      rejected.length ? h('ul', { class: 'choice' }, rejected.map((r) => h('li', { class: 'dropped' }, h('span', { class: 'mark' }, '✗'), code(r.nodeid), ' ', h('span', { class: 'muted' }, clean(r.reason))))) : null,
      removed.length ? h('ul', { class: 'choice' }, removed.map((id) => h('li', { class: 'dropped' }, h('span', { class: 'mark' }, '−'), code(id), ' ', h('span', { class: 'muted' }, 'no longer fails')))) : null,
      (e.files || []).map((f) => fold(f.path, lazy(() => textBlock(f.content, 'code')))),
    ),
  };
}

function stepCard(items) {
  const e = items[0].e;
  return { title: `Step mode: paused before ${e.before === 'model' ? `model call ${e.round}` : `the ${clean(e.name || 'tool')} call`}`, tone: 'human', compact: true };
}

function patchCard(items) {
  const e = items[0].e;
  const what = { accept: 'The patch was accepted', reject: 'The patch was rejected', save: 'The patch was saved, not applied' }[e.decision] || `Patch: ${clean(e.decision)}`;
  return {
    title: what,
    tone: 'human',
    body: h('p', null, e.applied ? 'It went into the developer’s checkout.' : 'The checkout was left as it was.', e.reason ? ` Reason: ${clean(e.reason)}` : ''),
  };
}

function resultCard(items, card, data) {
  const { i, e } = items[0];
  // The stop reason as tenet words it (a failed run whose selected tests passed says so, not "passed").
  const stop = (data.stops || {})[i] || e.stopReason;
  const usage = e.usage || {};
  const quality = e.testQuality;
  const q = quality
    ? [
        `${plural(quality.tests, 'test')} in ${quality.file}`,
        quality.groundTruth ? `${quality.groundTruth.passed}/${quality.groundTruth.total} pass on the ground truth` : '',
        quality.coverage ? `lines ${quality.coverage.lines.covered}/${quality.coverage.lines.total}, branches ${quality.coverage.branches.covered}/${quality.coverage.branches.total} covered` : '',
        quality.mutation ? `mutation score ${(quality.mutation.score * 100).toFixed(0)}% (${quality.mutation.killed}/${quality.mutation.total} killed)` : '',
        ...(quality.problems || []),
      ].filter(Boolean)
    : [];
  return {
    title: h('span', null, h('span', { class: `verdict ${e.pass ? 'pass' : 'fail'}` }, e.stopReason === 'unverified' ? 'UNVERIFIED' : e.pass ? 'PASS' : 'FAIL'), ` Result: ${clean(stop)}`),
    meta: duration(e.wallMs),
    tone: e.pass ? 'pass' : 'fail',
    body: h(
      'div',
      null,
      facts([
        ['selected tests', e.selectedTests ? (e.selectedTests.total ? `${e.selectedTests.passed}/${e.selectedTests.total} pass` : 'none given to the agent') : ''],
        ['hidden tests', e.hiddenTests ? `${e.hiddenTests.passed}/${e.hiddenTests.total} pass` : ''],
        ['tokens', `${integer(usage.inputTokens)} in, ${integer(usage.outputTokens)} out${e.tokensEstimated ? ' (partly estimated)' : ''}`],
        ['calls', `${plural(usage.modelCalls || 0, 'model call')}, ${plural(usage.toolCalls || 0, 'tool call')}`],
        ['cost', `${dollars(e.costUsd)}${e.costUnpriced ? ' (some calls unpriced)' : ''}${e.costOfPass !== null && e.costOfPass !== undefined ? ` · cost of a pass ${dollars(e.costOfPass)}` : ''}`],
        ['model', clean(e.model)],
        ['the agent’s tests', q.length ? clean(q.join('; ')) : ''],
        ['failure', e.failure ? clean(`${e.failure.kind}${(e.failure.hints || []).length ? `: ${e.failure.hints.join('; ')}` : ''}`) : ''],
        ['message', e.message ? clean(e.message) : ''],
      ]),
      Object.keys(e.tests || {}).length ? fold(`every test (${Object.keys(e.tests).length})`, testRows(e.tests)) : null,
      e.patch ? h('div', null, h('div', { class: 'label' }, 'the patch'), lazy(() => patchView(e.patch))) : h('p', { class: 'muted' }, 'No patch.'),
    ),
  };
}

function noteCard(items, card, data) {
  const e = items[0].e;
  const text = {
    warning: () => `Warning: ${e.message}`,
    error: () => `Error: ${e.message}`,
    'session.interrupted': () => `Interrupted: ${e.reason}`,
    'session.resumed': () => `Resumed ${e.position}${e.provider ? ` with ${e.provider}/${e.model}` : ''}`,
    'limit.reached': () => `Stopped: the session's ${e.limit === 'cost' ? 'cost' : 'token'} limit is reached (${e.limit === 'cost' ? `${dollars(e.spent)} of ${dollars(e.max)}` : `${integer(e.spent)} of ${integer(e.max)} tokens`}): no more model calls`,
    // Worded by engine/agent/context-words.ts when the page was made (data.condensed).
    'context.condensed': () => (data.condensed || {})[items[0].i] || `Context condensed before model call ${e.round}`,
    'model.unanswered': () => `${e.reason === 'cancelled' ? 'The model call was cancelled' : 'The model call got no answer'}; what it used was billed all the same (${dollars(e.costUsd)})`,
    'tests.kept': () => `The agent's tests were kept in the checkout: ${e.file}`,
    'session.forked': () => `Forked from session ${e.parent} at its event ${e.at}: ${e.recorded ? `the first ${e.recorded} model answers are that session's, then ` : ''}${e.provider}/${e.model} answers live`,
  }[e.type];
  return { title: clean(text ? text() : e.type), tone: ['session.resumed', 'session.forked', 'context.condensed', 'tests.kept'].includes(e.type) ? 'info' : 'warning', compact: true };
}

function hiddenCard(items) {
  const e = items[0].e;
  const hidden = e.hidden || [];
  return { title: `${plural(hidden.length, 'other failing test')} hidden from the agent until evaluation`, compact: true, body: hidden.length ? fold('which', h('ul', { class: 'plain' }, hidden.map((t) => h('li', null, code(t))))) : null };
}

function indexCard(items) {
  const e = items[0].e;
  return { title: `Repository index ready: ${plural(e.files, 'file')} (${integer(e.parsed)} parsed) in ${duration(e.ms)}`, compact: true };
}

function phaseCard(items) {
  const e = items[0].e;
  return { title: clean((PHASES[e.phase] || (() => e.phase))(e)), divider: true };
}

const humanise = (type) => String(type || 'event').replace(/[._-]+/g, ' ').replace(/^./, (c) => c.toUpperCase());

/** An event this page does not know: its type as a title, its fields as they were recorded. */
function unknownCard(items) {
  const e = items[0].e || {};
  const fields = Object.entries(e).filter(([k]) => !['type', 'v', 'seq', 'ts'].includes(k));
  const human = looksHuman(e);
  const text = fields.find(([k, v]) => typeof v === 'string' && ['text', 'message', 'content'].includes(k));
  return {
    title: clean(humanise(e.type)),
    tone: human ? 'human' : 'unknown',
    body: h(
      'div',
      null,
      text ? prose(text[1]) : null,
      facts(fields.filter((f) => f !== text).map(([k, v]) => [k, typeof v === 'string' ? (v.includes('\n') ? textBlock(v) : clean(v)) : h('pre', { class: 'code' }, clean(pretty(v)))])),
    ),
  };
}

const RENDERERS = {
  session: sessionCard,
  thm: thmCard,
  approval: approvalCard,
  hidden: hiddenCard,
  index: indexCard,
  phase: phaseCard,
  turn: turnCard,
  tool: toolCard,
  submission: submissionCard,
  'tests-submission': submissionCard,
  tests: testsCard,
  command: commandCard,
  debugger: debuggerCard,
  'human-debugger': debuggerCard,
  patch: patchCard,
  message: messageCard,
  step: stepCard,
  'developer-tests': developerTestsCard,
  result: resultCard,
  note: noteCard,
  unknown: unknownCard,
};

/** The card's element for its first `count` events; a renderer that throws shows the raw events instead. */
function renderCard(card, count, events, data) {
  const items = card.events.slice(0, count).map((i) => ({ i, e: events[i] }));
  let view;
  try {
    view = (RENDERERS[card.kind] || unknownCard)(items, card, data);
  } catch (error) {
    view = { title: `${humanise(items[0].e && items[0].e.type)} (shown raw: ${error && error.message})`, tone: 'unknown', body: h('pre', { class: 'code' }, clean(items.map((x) => pretty(x.e)).join('\n'))) };
  }
  const seq = items[0].e && items[0].e.seq;
  const classes = ['card', `kind-${card.kind}`, view.tone ? `tone-${view.tone}` : '', view.compact ? 'compact' : '', view.divider ? 'divider' : ''].filter(Boolean).join(' ');
  return h(
    'section',
    { class: classes, 'data-kind': card.kind, 'data-card': card.index, 'data-seq': seq },
    h('header', null, h('h3', null, view.title), view.meta ? h('span', { class: 'meta' }, view.meta) : null),
    view.body ? h('div', { class: 'body' }, view.body) : null,
  );
}
