import type { SessionPageData } from '../page-data';
import { naturally } from '../../util/natural-order';
import { chip, clean, code, facts, fold, h, lazy, prose, textBlock } from './dom';
import { diffCounts, diffView } from './diff-view';
import { dollars, duration, integer, outcomeClass, counted, pretty, shortTest } from './format';
import { isHuman } from './timeline';
import { head, itemOf, itemsOf, type Card, type CardView, type Item } from './types';
import { PURPOSE_TITLES } from './words';

// The cards of the agent at work: its model turns, its tool calls (with the developer's edits of
// them and their answers to its commands), its submissions, the test runs, the debugger, and the
// developer's messages and step pauses.

/** Each test of a run as a row: a dot coloured by its outcome, its name, its file, the outcome. */
export function testRows(outcomes: Record<string, string>): HTMLElement {
  return h(
    'div',
    { class: 'grid' },
    naturally(Object.keys(outcomes)).map((id) => {
      const outcome = String(outcomes[id]);
      return h(
        'div',
        { class: `grid-row ${outcomeClass(outcome)}`, title: `${id}: ${outcome}` },
        h('span', { class: 'dot' }),
        h('span', { class: 'test' }, clean(shortTest(id))),
        h('span', { class: 'file' }, clean(String(id).split('::')[0])),
        h('span', { class: 'outcome' }, clean(outcome)),
      );
    }),
  );
}

export function turnCard(items: Item[]): CardView {
  const request = itemOf(items, 'model.request');
  const response = itemOf(items, 'model.response');
  const retries = itemsOf(items, 'model.retry');
  const streamed = itemsOf(items, 'model.delta')
    .map((x) => x.e.text)
    .join('');
  const r = response?.e;
  const prompts = request ? (request.e.newMessages || []).filter((m) => m.role === 'user') : [];
  const toolCalls = r?.toolCalls || [];
  return {
    title: `Model${request ? ` · round ${request.e.round}` : ''}`,
    meta: r
      ? `${integer(r.usage?.inputTokens)} in · ${integer(r.usage?.outputTokens)} out${r.costUsd ? ` · ${dollars(r.costUsd)}` : ''}${r.durationMs ? ` · ${duration(r.durationMs)}` : ''}`
      : 'answering…',
    body: h(
      'div',
      null,
      request?.e.system
        ? fold(
            'system prompt',
            lazy(() => textBlock(request.e.system, 'code')),
          )
        : null,
      prompts.map((m) =>
        fold(
          `prompt (${counted(String(m.content).split('\n').length, 'line')})`,
          lazy(() => textBlock(m.content, 'code')),
        ),
      ),
      retries.map((x) =>
        h(
          'p',
          { class: 'note warning' },
          `The call failed (${clean(x.e.reason)}); retry ${x.e.attempt} of ${Math.max(1, (x.e.maxAttempts || 1) - 1)} in ${duration(x.e.delayMs)}.`,
        ),
      ),
      r
        ? r.content?.trim()
          ? prose(r.content)
          : null
        : streamed
          ? h('div', { class: 'streaming' }, prose(streamed))
          : h('p', { class: 'muted' }, 'Waiting for the model…'),
      toolCalls.length
        ? h(
            'div',
            { class: 'calls' },
            'calls ',
            toolCalls.map((c) => chip(clean(c.name), 'tool')),
          )
        : null,
      r && !r.content?.trim() && !toolCalls.length ? h('p', { class: 'muted' }, 'An empty answer.') : null,
    ),
  };
}

/** The argument worth a headline: a file, a command, a name. */
function argumentSummary(args: Record<string, unknown> | undefined): string {
  if (!args || typeof args !== 'object') return '';
  for (const key of [
    'cmd',
    'command',
    'file_name',
    'path',
    'method_name',
    'class_name',
    'search_string',
    'query',
    'reason',
  ]) {
    const value = args[key];
    if (typeof value === 'string') return value;
  }
  const first = Object.values(args).find((v): v is string => typeof v === 'string' && !v.includes('\n'));
  return first || '';
}

interface ArgumentsView {
  args: Record<string, unknown> | undefined;
  hasLong: boolean;
  view: HTMLElement | null;
}

function argumentsView(raw: string): ArgumentsView {
  let args: unknown;
  try {
    args = JSON.parse(raw || '{}');
  } catch {
    return {
      args: undefined,
      hasLong: false,
      view: h(
        'div',
        null,
        h('p', { class: 'note warning' }, 'Arguments that are not JSON, as the model sent them:'),
        textBlock(raw, 'code'),
      ),
    };
  }
  if (!args || typeof args !== 'object' || Array.isArray(args))
    return { args: undefined, hasLong: false, view: textBlock(pretty(args), 'code') };
  const entries = Object.entries(args);
  const long = entries.filter(([, v]) => typeof v === 'string' && (v.includes('\n') || v.length > 120));
  const short = entries.filter(([k]) => !long.some(([l]) => l === k));
  return {
    args: args as Record<string, unknown>,
    hasLong: long.length > 0,
    view: h(
      'div',
      { class: 'args' },
      short.length ? facts(short.map(([k, v]) => [k, code(typeof v === 'string' ? v : JSON.stringify(v))])) : null,
      long.map(([k, v]) =>
        h(
          'div',
          null,
          h('div', { class: 'label' }, k),
          lazy(() => textBlock(v, 'code')),
        ),
      ),
    ),
  };
}

/**
 * The developer's edit of a call before it ran (step mode). An edit of its code is a diff against
 * the model's code (computed with the page, as the TUI's transcript shows it); of other arguments,
 * the note, with the model's arguments folded.
 */
function editView(edit: Item<{ original: string }>, data: SessionPageData): HTMLElement {
  const edited = data.edits?.[edit.i];
  return h(
    'div',
    { class: 'edited' },
    edited
      ? h(
          'div',
          null,
          h(
            'p',
            { class: 'note' },
            "The developer changed the model's code before it ran (",
            diffCounts(edited.added, edited.removed),
            '); it ran with theirs:',
          ),
          diffView(edited.hunks),
        )
      : h('p', { class: 'note' }, 'The developer changed the arguments before it ran; it ran with the ones below.'),
    fold("the model's arguments", argumentsView(edit.e.original).view),
  );
}

export function toolCard(items: Item[], card: Card, data: SessionPageData): CardView {
  const call = itemOf(items, 'tool.call');
  const edit = itemOf(items, 'tool.edit');
  const result = itemOf(items, 'tool.result');
  const run = itemOf(items, 'tests.run');
  const inputs = itemsOf(items, 'debugger.input');
  // It ran with the developer's arguments when they edited the call (step mode).
  const ran = edit ? edit.e.arguments : call?.e.arguments;
  const { args, view, hasLong }: ArgumentsView =
    ran !== undefined ? argumentsView(ran) : { args: undefined, view: null, hasLong: false };
  const name = call?.e.name || result?.e.name || card.name || 'tool';
  const summary = argumentSummary(args);
  const status = result ? (result.e.ok ? '' : 'error') : '';
  return {
    title: h(
      'span',
      null,
      h('span', { class: 'tool-name' }, clean(name)),
      summary
        ? h('span', { class: 'tool-arg' }, clean(summary.length > 140 ? `${summary.slice(0, 140)}…` : summary))
        : null,
      edit ? chip('edited by the developer', 'human', 'the developer changed the arguments before it ran') : null,
    ),
    meta: result ? `${result.e.ok ? 'ok' : 'error'} · ${duration(result.e.durationMs)}` : 'running…',
    tone: status || (edit ? 'human' : ''),
    body: h(
      'div',
      null,
      edit ? editView(edit, data) : null,
      inputs.length
        ? h(
            'div',
            { class: 'typed' },
            inputs.map((x) =>
              h('div', null, h('span', { class: 'prompt' }, x.e.mode === 'pdb' ? '(Pdb) ' : '$ '), clean(x.e.input)),
            ),
          )
        : fold('arguments', view, !summary && !hasLong),
      run
        ? h(
            'div',
            { class: 'attached-run' },
            h('div', { class: 'label' }, `${run.e.passed}/${run.e.total} passed`),
            testRows(run.e.outcomes || {}),
          )
        : null,
      result
        ? h(
            'div',
            { class: 'result' },
            h('div', { class: 'label' }, result.e.ok ? 'output' : 'error'),
            lazy(() => textBlock(result.e.text)),
          )
        : h('p', { class: 'muted' }, 'No output yet.'),
    ),
  };
}

export function submissionCard(items: Item[], _card: Card, data: SessionPageData): CardView {
  const { i, e } = head(items, 'submission', 'tests.submission');
  const diff = data.diffs?.[i];
  const tests = e.type === 'tests.submission';
  const title = tests
    ? `The agent's tests, version ${diff ? diff.number : '?'}`
    : `Submission ${diff ? diff.number : ''}`;
  return {
    title: h(
      'span',
      null,
      title.trim(),
      e.type === 'tests.submission' && e.path ? h('span', { class: 'tool-arg' }, clean(e.path)) : null,
    ),
    meta: h(
      'span',
      null,
      diff ? diffCounts(diff.added, diff.removed) : null,
      diff ? ` against the ${diff.against}` : '',
      e.ok ? '' : ' · rejected',
    ),
    tone: e.ok ? 'submission' : 'error',
    body: h(
      'div',
      null,
      e.message ? h('p', { class: e.ok ? 'muted' : 'note warning' }, clean(e.message)) : null,
      lazy(() => (diff ? diffView(diff.hunks) : textBlock(e.code, 'code'))),
    ),
  };
}

export function testsCard(items: Item[]): CardView {
  const { e } = head(items, 'tests.run');
  return {
    title: PURPOSE_TITLES[e.purpose] || `Tests (${clean(e.purpose)})`,
    meta: `${e.passed}/${e.total} passed`,
    tone: e.total && e.passed === e.total ? 'pass' : 'fail',
    body: h(
      'div',
      null,
      testRows(e.outcomes || {}),
      e.report
        ? fold(
            'pytest report',
            lazy(() => textBlock(e.report)),
          )
        : null,
    ),
  };
}

const COMMAND_VERBS: Record<string, string> = {
  approved: 'allowed the command',
  'approved-session': 'allowed the command, and every later one',
  denied: 'refused the command',
  stopped: 'stopped the agent at the command',
};

export function commandCard(items: Item[]): CardView {
  const { e } = head(items, 'command.approval');
  const verb = COMMAND_VERBS[e.decision] || clean(e.decision);
  return {
    title: isHuman(e.by) ? `The developer ${verb}` : `${verb[0]!.toUpperCase()}${verb.slice(1)}, without asking anyone`,
    tone: isHuman(e.by) ? 'human' : '',
    body: h(
      'div',
      null,
      h('pre', { class: 'code' }, `$ ${clean(e.command)}`),
      e.reason ? h('p', null, 'Reason: ', clean(e.reason)) : null,
    ),
  };
}

export function debuggerCard(items: Item[], card: Card): CardView {
  const human = card.kind === 'human-debugger';
  const lines: Node[] = [];
  for (const { e } of items) {
    if (e.type === 'debugger.input')
      lines.push(
        h(
          'div',
          { class: isHuman(e.who) ? 'typed human' : 'typed' },
          h('span', { class: 'prompt' }, e.mode === 'pdb' ? '(Pdb) ' : '$ '),
          clean(e.input),
        ),
      );
    else if (e.type === 'debugger.output') lines.push(document.createTextNode(clean(e.chunk)));
  }
  const entry = itemOf(items, 'debugger.entry');
  const inputs = itemsOf(items, 'debugger.input');
  if (!inputs.length && entry) {
    lines.push(
      h(
        'div',
        { class: 'typed human' },
        h('span', { class: 'prompt' }, entry.e.entry.mode === 'pdb' ? '(Pdb) ' : '$ '),
        clean(entry.e.entry.input),
      ),
      document.createTextNode(clean(entry.e.entry.output)),
    );
  }
  return {
    title: human
      ? 'The developer typed in the debugger'
      : inputs.some((x) => x.e.who === 'tenet')
        ? "Debugger: tenet started pdb for the developer's takeover"
        : 'Debugger',
    tone: human ? 'human' : '',
    body: h('pre', { class: 'output transcript' }, lines),
  };
}

const VIA: Record<string, string> = { file: 'from the message file', fork: 'when the session was forked' };

export function messageCard(items: Item[]): CardView {
  const { e } = head(items, 'developer.message');
  return {
    title: 'The developer wrote to the model',
    meta: [`with request ${e.round}`, VIA[e.via]].filter(Boolean).join(' · '),
    tone: 'human',
    body: prose(e.text || ''),
  };
}

export function stepCard(items: Item[]): CardView {
  const { e } = head(items, 'step.pause');
  return {
    title: `Step mode: paused before ${e.before === 'model' ? `model call ${e.round}` : `the ${clean(e.name || 'tool')} call`}`,
    tone: 'human',
    compact: true,
  };
}
