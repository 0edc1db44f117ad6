import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { condensedWords } from '../agent/context-words';
import { installRoot } from '../assets';
import { TenetError } from '../errors';
import { escapeHtml } from '../util/escape-html';
import type { EngineEvent } from '../events';
import {
  capitalized,
  planEndWords,
  planFinalWords,
  planTargetWords,
  planWords,
  stopLabel,
  targetVerdictLines,
} from '../phrase-book';
import { proposeFor } from '../thm/propose';
import type { ThmReport } from '../protocol/thm-report';
import { codeEditHunks } from './code-edit';
import type { SessionPageData } from './page-data';
import { submissionDiffs } from './page-diffs';

/**
 * `tenet export --format html`: one page that replays a session in any browser, offline. The
 * page's script (./page/*.ts, bundled by the build into dist/session-page.js) and its style
 * (./page/page.css) are read at run time from the installation, like the prompts, and inlined
 * here; the session goes in as JSON (SessionPageData, page-data.ts). Nothing is fetched: a
 * Content-Security-Policy allows exactly the two inline blocks (by hash) and no connection, so a
 * model's output that smuggles in markup can neither run nor phone home even if it got past the
 * escaping.
 */

const pageDir = () => join(installRoot(), 'source', 'engine', 'session', 'page');

/** The page's script as the build bundled it (scripts/build.mjs). */
export function pageScript(): string {
  const file = join(installRoot(), 'dist', 'session-page.js');
  try {
    return readFileSync(file, 'utf8');
  } catch {
    throw new TenetError(`The session page's script is not built (${file} is missing).`, 'run npm run build in tenet');
  }
}

/**
 * JSON that can sit inside a `<script>` element: `<`, `>` and `&` become \u escapes (valid in
 * JSON strings, and never needed outside them), so no `</script>` or `<!--` can end or bend the
 * block; U+2028/2029 too, which older parsers read as line ends.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

function version(): string {
  try {
    return (
      (JSON.parse(readFileSync(join(installRoot(), 'package.json'), 'utf8')) as { version?: string }).version ?? ''
    );
  } catch {
    return '';
  }
}

/**
 * A developer who changes T is shown THM's proposal for the new T (as the TUI does): the
 * recorded `proposed` is the one for the report's T, and a new T alone is no override.
 */
function proposalsForChosenT(events: readonly EngineEvent[]): Record<number, string[]> {
  const proposals: Record<number, string[]> = {};
  let report: ThmReport | undefined;
  events.forEach((event, index) => {
    if (event.type === 'thm.report') report = event.report;
    if (event.type === 'thm.approval' && report && event.T !== null && event.T !== report.T)
      proposals[index] = proposeFor(report, event.T);
  });
  return proposals;
}

/** The stop reason of each result as the printed lines word it (phrase-book's stopLabel), so the page says the same. */
function stopLabels(events: readonly EngineEvent[]): Record<number, string> {
  const labels: Record<number, string> = {};
  events.forEach((event, index) => {
    if (event.type === 'result') labels[index] = stopLabel(event);
  });
  return labels;
}

/** Each context.condensed event's line, as the TUI, `tenet show` and the printer word it. */
function condensedLines(events: readonly EngineEvent[]): Record<number, string> {
  const lines: Record<number, string> = {};
  events.forEach((event, index) => {
    if (event.type === 'context.condensed') lines[index] = condensedWords(event);
  });
  return lines;
}

/** A plan's events in tenet's words (the printer's and `tenet show`'s), and a plan's verdicts, one line per target. */
function planLines(events: readonly EngineEvent[]): Record<number, string> {
  const lines: Record<number, string> = {};
  events.forEach((event, index) => {
    const words =
      event.type === 'plan'
        ? capitalized(planWords(event))
        : event.type === 'plan.target'
          ? capitalized(planTargetWords(event))
          : event.type === 'plan.target.end'
            ? capitalized(planEndWords(event))
            : event.type === 'plan.final'
              ? capitalized(planFinalWords(event))
              : event.type === 'result' && event.targets
                ? targetVerdictLines(event.targets).join('\n')
                : undefined;
    if (words) lines[index] = words;
  });
  return lines;
}

/**
 * An edit of a call's code is shown as what the developer changed of the model's code, as the
 * TUI's transcript and `tenet show` tell it (code-edit.ts), not as two JSON strings.
 */
function codeEdits(events: readonly EngineEvent[]): SessionPageData['edits'] {
  const edits: SessionPageData['edits'] = {};
  events.forEach((event, index) => {
    const edit = event.type === 'tool.edit' ? codeEditHunks(event.original, event.arguments) : undefined;
    if (edit) edits[index] = edit;
  });
  return edits;
}

export function sessionPage(id: string, events: readonly EngineEvent[]): string {
  const style = readFileSync(join(pageDir(), 'page.css'), 'utf8');
  const script = pageScript();
  const data: SessionPageData = {
    format: 'tenet-session-page',
    id,
    events,
    diffs: submissionDiffs(events),
    proposals: proposalsForChosenT(events),
    stops: stopLabels(events),
    condensed: condensedLines(events),
    plans: planLines(events),
    edits: codeEdits(events),
    generator: `tenet ${version()}`.trim(),
  };
  const start = events.find((e) => e.type === 'session.start');
  const title = `tenet session ${id}${start?.type === 'session.start' ? ` · ${start.target}` : ''}`;
  const policy = [
    `default-src 'none'`,
    `script-src ${sha256(script)}`,
    `style-src ${sha256(style)}`,
    `img-src data:`,
    `base-uri 'none'`,
    `form-action 'none'`,
  ].join('; ');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${policy}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="${escapeHtml(data.generator)}">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
<style>${style}</style>
</head>
<body>
<noscript><p class="noscript">This page replays a tenet session with JavaScript, which is off. The session's events are in the page's source, as JSON.</p></noscript>
<div id="app"></div>
<script type="application/json" id="tenet-session">${jsonForScript(data)}</script>
<script>${script}</script>
</body>
</html>
`;
}
