import type { BenchReport } from './report';
import { renderChart } from './report-chart';
import { escapeHtml } from '../util/escape-html';
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
 * One self-contained page: inline CSS, the inline SVG chart, the two tables. Nothing is fetched
 * (no scripts, fonts or images), so it opens from a file, offline, and can be attached to a
 * paper's artifact as is.
 */
const STYLE = `
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1d2430; margin: 2rem; }
main { max-width: 1200px; }
h1 { font-size: 1.6rem; margin: 0 0 1rem; }
h2 { font-size: 1.15rem; margin: 2rem 0 .6rem; }
table { border-collapse: collapse; margin: .5rem 0; }
th, td { padding: .3rem .7rem; border-bottom: 1px solid #d6dbe3; }
th { background: #f2f4f8; text-align: left; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
td.best { font-weight: 700; }
.note { color: #566073; max-width: 60rem; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; }
dt { font-weight: 600; }
dd { margin: 0; font-family: ui-monospace, monospace; font-size: 12px; overflow-wrap: anywhere; }
.chart { max-width: 100%; height: auto; }
.chart .grid { stroke: #e3e7ee; }
.chart .axis-line { stroke: #8a93a3; }
.chart text { font-size: 11px; fill: #3b4454; }
.chart .axis-title, .chart .label { font-size: 12px; }
.chart .bar-pass { fill: #3266cc; }
.chart .bar-cost { fill: #e8912d; }
`;

function renderTable(table: Table): string {
  const head = table.headers
    .map((text, i) => `<th${table.numeric[i] ? ' class="num"' : ''}>${escapeHtml(text)}</th>`)
    .join('');
  const rows = table.rows.map((cells) => {
    const tds = cells.map((cell, i) => {
      const classes = [table.numeric[i] ? 'num' : '', cell.best ? 'best' : ''].filter(Boolean).join(' ');
      return `<td${classes ? ` class="${classes}"` : ''}>${escapeHtml(cell.text)}</td>`;
    });
    return `<tr>${tds.join('')}</tr>`;
  });
  return ['<table>', `<thead><tr>${head}</tr></thead>`, '<tbody>', ...rows, '</tbody>', '</table>'].join('\n');
}

/** The tasks whose verdict could not be checked, and why; nothing when there are none. */
function unverifiedSection(report: BenchReport): string {
  const lines = unverifiedLines(report);
  if (!lines.length) return '';
  return `<h2>Unverified tasks (counted as failures)</h2>\n<ul>\n${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join('\n')}\n</ul>\n`;
}

export function renderHtml(report: BenchReport): string {
  const settings = report.configurations.map(
    (c) => `<dt>${escapeHtml(c.label)}</dt><dd>${escapeHtml(c.runDir)} — ${escapeHtml(settingsLine(c.config))}</dd>`,
  );
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>tenet benchmark report</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>Benchmark report</h1>
<h2>Pass@1 and cost per configuration</h2>
${renderChart(report)}
${renderTable(summaryTable(report))}
<p class="note">${escapeHtml(DEFINITIONS)}</p>
<h2>Pass@1 per repository</h2>
${renderTable(repositoryTable(report))}
<h2>Figures per repository</h2>
${repositoryFigureTables(report)
  .map(({ repository, table }) => `<h3>${escapeHtml(repository)}</h3>\n${renderTable(table)}`)
  .join('\n')}
${unverifiedSection(report)}<h2>Configurations</h2>
<dl>
${settings.join('\n')}
</dl>
</main>
</body>
</html>
`;
}
