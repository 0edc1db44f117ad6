import type { BenchReport } from './report';
import { escapeHtml } from '../util/escape-html';
import { NONE, percent, tick, usd } from './report-numbers';

/**
 * The HTML page's chart, drawn by hand as inline SVG (the page loads nothing): per configuration a
 * Pass@1 bar on the left axis (0–100%) next to an average-cost bar on the right axis, so the
 * accuracy–cost trade-off the paper's CoP summarises is visible at a glance.
 */
const PLOT_HEIGHT = 220;
const TOP = 48; // room for the legend
const BOTTOM = 40; // room for the configuration labels
const LEFT = 56;
const RIGHT = 72;
const GROUP = 112;
const BAR = 34;
const GAP = 6;
const LABEL_CHARS = 16;

/** The smallest of 1, 2, 2.5, 5 × 10^k at or above `max`: a cost axis with round ticks. */
export function niceCeiling(max: number): number {
  if (!(max > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 2.5, 5]) if (step * power >= max * (1 - 1e-12)) return step * power;
  return 10 * power;
}

/** SVG coordinates with one decimal: exact enough for a screen, short in the file. */
function at(value: number): string {
  return String(Math.round(value * 10) / 10);
}

function truncate(label: string): string {
  return label.length > LABEL_CHARS ? `${label.slice(0, LABEL_CHARS - 1)}…` : label;
}

export function renderChart(report: BenchReport): string {
  const configurations = report.configurations;
  const width = LEFT + Math.max(1, configurations.length) * GROUP + RIGHT;
  const height = TOP + PLOT_HEIGHT + BOTTOM;
  const base = TOP + PLOT_HEIGHT;
  const costTop = niceCeiling(Math.max(0, ...configurations.map((c) => c.overall.avgCostUsd ?? 0)));
  const parts: string[] = [];

  for (let i = 0; i <= 4; i++) {
    const y = at(base - (PLOT_HEIGHT * i) / 4);
    parts.push(
      `<line class="grid" x1="${LEFT}" x2="${width - RIGHT}" y1="${y}" y2="${y}"/>`,
      `<text class="axis" x="${LEFT - 6}" y="${y}" text-anchor="end" dominant-baseline="middle">${i * 25}%</text>`,
      `<text class="axis" x="${width - RIGHT + 6}" y="${y}" dominant-baseline="middle">$${tick((costTop * i) / 4)}</text>`,
    );
  }
  parts.push(
    `<text class="axis-title" transform="translate(14 ${at(TOP + PLOT_HEIGHT / 2)}) rotate(-90)" text-anchor="middle">Pass@1</text>`,
    `<text class="axis-title" transform="translate(${width - 12} ${at(TOP + PLOT_HEIGHT / 2)}) rotate(90)" text-anchor="middle">Avg cost per task (USD)</text>`,
    `<rect class="bar-pass" x="${LEFT}" y="12" width="12" height="12"/>`,
    `<text class="legend" x="${LEFT + 18}" y="22">Pass@1 (left axis)</text>`,
    `<rect class="bar-cost" x="${LEFT + 150}" y="12" width="12" height="12"/>`,
    `<text class="legend" x="${LEFT + 168}" y="22">Avg cost (right axis)</text>`,
  );

  configurations.forEach((c, i) => {
    const label = escapeHtml(c.label);
    const x = LEFT + i * GROUP + (GROUP - 2 * BAR - GAP) / 2;
    const pass = c.overall.passAt1 ?? 0;
    const cost = c.overall.avgCostUsd ?? 0;
    const passHeight = pass * PLOT_HEIGHT;
    const costHeight = (cost / costTop) * PLOT_HEIGHT;
    const passText = percent(c.overall.passAt1);
    const costText = c.overall.avgCostUsd === null ? NONE : `$${usd(c.overall.avgCostUsd)}`;
    // Above a bar there is room for about six characters: three significant digits ($0.027).
    const costShort = c.overall.avgCostUsd === null ? NONE : `$${tick(c.overall.avgCostUsd)}`;
    parts.push(
      `<rect class="bar-pass" x="${at(x)}" y="${at(base - passHeight)}" width="${BAR}" height="${at(passHeight)}"><title>${label}: Pass@1 ${passText}</title></rect>`,
      `<text class="value" x="${at(x + BAR / 2)}" y="${at(base - passHeight - 4)}" text-anchor="middle">${passText}</text>`,
      `<rect class="bar-cost" x="${at(x + BAR + GAP)}" y="${at(base - costHeight)}" width="${BAR}" height="${at(costHeight)}"><title>${label}: avg cost ${costText}</title></rect>`,
      `<text class="value" x="${at(x + BAR + GAP + BAR / 2)}" y="${at(base - costHeight - 4)}" text-anchor="middle">${costShort}</text>`,
      `<text class="label" x="${at(LEFT + i * GROUP + GROUP / 2)}" y="${base + 18}" text-anchor="middle"><title>${label}</title>${escapeHtml(truncate(c.label))}</text>`,
    );
  });

  return [
    `<svg class="chart" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="Pass@1 and average cost per configuration">`,
    ...parts.map((part) => `  ${part}`),
    `  <line class="axis-line" x1="${LEFT}" x2="${width - RIGHT}" y1="${base}" y2="${base}"/>`,
    '</svg>',
  ].join('\n');
}
