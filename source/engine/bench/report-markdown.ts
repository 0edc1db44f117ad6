import type { BenchReport } from './report';
import {
  DEFINITIONS,
  repositoryFigureTables,
  repositoryTable,
  settingsLine,
  summaryTable,
  unverifiedLines,
  type Table,
} from './report-tables';

/**
 * Labels, repository names and settings come from run folders: a `|` would split a table cell and
 * `*`, `_`, `<`… would turn into emphasis or HTML, so Markdown's own characters are escaped.
 */
function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]<>|]/g, (char) => `\\${char}`).replace(/\r?\n/g, ' ');
}

function renderTable(table: Table): string[] {
  const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [
    row(table.headers.map(escapeMarkdown)),
    row(table.numeric.map((numeric) => (numeric ? '---:' : '---'))),
    ...table.rows.map((cells) =>
      row(cells.map((cell) => (cell.best ? `**${escapeMarkdown(cell.text)}**` : escapeMarkdown(cell.text)))),
    ),
  ];
}

export function renderMarkdown(report: BenchReport): string {
  const unverified = unverifiedLines(report);
  const lines = [
    '# Benchmark report',
    '',
    ...renderTable(summaryTable(report)),
    '',
    DEFINITIONS,
    '',
    '## Pass@1 per repository',
    '',
    ...renderTable(repositoryTable(report)),
    '',
    '## Figures per repository',
    '',
    ...repositoryFigureTables(report).flatMap(({ repository, table }) => [
      `### ${escapeMarkdown(repository)}`,
      '',
      ...renderTable(table),
      '',
    ]),
    // Failures that are not the model's: the check the verdict rests on could not be completed.
    ...(unverified.length
      ? ['## Unverified tasks (counted as failures)', '', ...unverified.map((line) => `- ${escapeMarkdown(line)}`), '']
      : []),
    '## Configurations',
    '',
    ...report.configurations.map(
      (c) =>
        `- **${escapeMarkdown(c.label)}** (${escapeMarkdown(c.runDir)}): ${escapeMarkdown(settingsLine(c.config))}`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}
