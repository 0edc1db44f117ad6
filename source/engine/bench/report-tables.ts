import type { BenchReport, Figures } from './report';
import { costOfPass, count, NONE, oneDecimal, percent, seconds, usd } from './report-numbers';

/**
 * The report's tables as text cells, built once so that the Markdown and the HTML page show the
 * same numbers; each renderer only escapes and lays them out.
 */
export interface Cell {
  text: string;
  /** The row's best value, bold as in the paper's tables. */
  best?: boolean;
}

export interface Table {
  headers: string[];
  /** Right-aligned columns. */
  numeric: boolean[];
  rows: Cell[][];
}

export const DEFINITIONS =
  'Pass@1 is passed / finished tasks (a task that ended in an error counts as a failure); averages are per finished task; ' +
  'CoP (Cost-of-Pass) is the average cost divided by Pass@1, ∞ when nothing passed; ' +
  'cached input is the share of input tokens read from the prompt cache, and saved by caching what a task would have cost with every input token at the input price, less its cost ' +
  '(both over the tasks that counted the cache; – for runs recorded before tenet did).';

const FIGURE_HEADERS = [
  'Finished',
  'Errors',
  'Pass@1',
  'Avg input tokens',
  'Avg output tokens',
  'Cached input',
  'Avg cost (USD)',
  'Avg saved by caching (USD)',
  'CoP (USD)',
  'Avg API calls',
  'Avg tool calls',
  'Avg wall time (s)',
];

/** One configuration's figures as a row of the summary layout; a dash in every cell when it has none. */
function figuresRow(label: string, f: Figures | undefined): Cell[] {
  const texts = f
    ? [
        `${f.finished}/${f.tasks}`,
        String(f.errors),
        percent(f.passAt1),
        count(f.avgInputTokens),
        count(f.avgOutputTokens),
        percent(f.cachedShare),
        usd(f.avgCostUsd),
        usd(f.avgCacheSavedUsd),
        costOfPass(f),
        oneDecimal(f.avgModelCalls),
        oneDecimal(f.avgToolCalls),
        seconds(f.avgWallMs),
      ]
    : FIGURE_HEADERS.map(() => NONE);
  return [label, ...texts].map((text) => ({ text }));
}

function figuresTable(rows: Cell[][]): Table {
  const headers = ['Configuration', ...FIGURE_HEADERS];
  return { headers, numeric: headers.map((_, i) => i > 0), rows };
}

/** The paper's Table I/II layout: a row per configuration. */
export function summaryTable(report: BenchReport): Table {
  return figuresTable(report.configurations.map(({ label, overall }) => figuresRow(label, overall)));
}

/** The tasks each configuration could not verify, as lines (`label: task (repository): reason`); none when every verdict was checked. */
export function unverifiedLines(report: BenchReport): string[] {
  return report.configurations.flatMap((c) =>
    c.unverified.map((task) => `${c.label}: ${task.taskId} (${task.repository}): ${task.reason}`),
  );
}

/** The repositories any configuration ran, sorted. */
function repositoryNames(report: BenchReport): string[] {
  return [...new Set(report.configurations.flatMap((c) => Object.keys(c.repositories)))].sort();
}

/**
 * The summary's columns for each repository (tokens, cost, CoP, calls and wall time, not only
 * Pass@1): a table per repository with a row per configuration; a configuration that did not run
 * the repository has dashes.
 */
export function repositoryFigureTables(report: BenchReport): { repository: string; table: Table }[] {
  return repositoryNames(report).map((repository) => ({
    repository,
    table: figuresTable(report.configurations.map((c) => figuresRow(c.label, c.repositories[repository]))),
  }));
}

/**
 * Bold the row's highest Pass@1 (all of them on a tie), but only where the configurations differ:
 * a row where every configuration scores the same has no best.
 */
function pass1Row(values: (number | null)[]): Cell[] {
  const known = values.filter((value): value is number => value !== null);
  const max = Math.max(...known);
  const differ = known.length > 1 && Math.min(...known) < max;
  return values.map((value) => ({ text: percent(value), ...(differ && value === max ? { best: true } : {}) }));
}

/** The paper's Table IV layout: Pass@1 with a row per repository and a column per configuration. */
export function repositoryTable(report: BenchReport): Table {
  const { configurations } = report;
  const names = repositoryNames(report);
  const rows = names.map((name) => [
    { text: name },
    ...pass1Row(configurations.map((c) => c.repositories[name]?.passAt1 ?? null)),
  ]);
  rows.push([{ text: 'Overall' }, ...pass1Row(configurations.map((c) => c.overall.passAt1))]);
  return {
    headers: ['Repository', ...configurations.map((c) => c.label)],
    numeric: [false, ...configurations.map(() => true)],
    rows,
  };
}

/** A configuration's settings on one line: `key=value`, values that are not strings as JSON. */
export function settingsLine(config: Record<string, unknown>): string {
  const parts = Object.entries(config).map(
    ([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`,
  );
  return parts.length ? parts.join(', ') : NONE;
}
