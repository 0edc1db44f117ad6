import type { Figures } from './report';

/**
 * How the report's numbers are written, the same in Markdown and HTML, in the paper's style
 * (69.08%, 1,119,149 tokens). Written by hand rather than with toLocaleString so the output does
 * not depend on the machine's locale. A missing figure (nothing finished) is a dash.
 */
export const NONE = '–';

export function percent(fraction: number | null): string {
  return fraction === null ? NONE : `${(fraction * 100).toFixed(2)}%`;
}

/** A whole number with thousands separators. */
export function count(value: number | null): string {
  if (value === null) return NONE;
  const rounded = Math.round(value);
  const digits = String(Math.abs(rounded)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return rounded < 0 ? `-${digits}` : digits;
}

/** Dollars: four decimals, since one task costs cents or less. */
export function usd(value: number | null): string {
  return value === null ? NONE : value.toFixed(4);
}

/** CoP: infinite when tasks finished and none passed. */
export function costOfPass(figures: Figures): string {
  if (figures.passAt1 === null) return NONE;
  return figures.costOfPass === null ? '∞' : usd(figures.costOfPass);
}

export function oneDecimal(value: number | null): string {
  return value === null ? NONE : value.toFixed(1);
}

export function seconds(ms: number | null): string {
  return ms === null ? NONE : (ms / 1000).toFixed(1);
}

/** Axis ticks: three significant digits, trailing zeros dropped (0.0025, 0.05, 1.5). */
export function tick(value: number): string {
  return String(Number(value.toPrecision(3)));
}
