import type { PageEvent } from './types';

// Numbers, times and names as the page writes them.

export const integer = (n: unknown): string => Math.round(Number(n) || 0).toLocaleString('en-US');
export const kilobytes = (chars: number): string =>
  chars < 1024 ? `${chars} B` : `${(chars / 1024).toFixed(chars < 10240 ? 1 : 0)} KB`;
export const dollars = (usd: unknown): string => `$${(Number(usd) || 0).toFixed(4)}`;

export function duration(ms: unknown): string {
  const n = Number(ms) || 0;
  if (n < 1000) return `${Math.round(n)} ms`;
  if (n < 60000) return `${(n / 1000).toFixed(1)} s`;
  return `${Math.floor(n / 60000)} min ${Math.round((n % 60000) / 1000)} s`;
}

/** `1 test`, `1,204 tests`: a count, its thousands separated, with its noun. */
export const counted = (n: number, one: string, many = `${one}s`): string => `${integer(n)} ${n === 1 ? one : many}`;
/** A recorded event's time in ms, or 0 when it has none. */
export const timeOf = (event: Pick<PageEvent, 'ts'> | undefined): number => Date.parse(event?.ts || '') || 0;

/** `path/to/test_x.py::TestA::test_b[1]` → the test's name, with its file kept for the title. */
export function shortTest(nodeid: string): string {
  const parts = String(nodeid).split('::');
  return parts.length > 1 ? parts.slice(1).join('::') : String(nodeid);
}

/** A qualified frame (`path.py::Class.method`) shown by its name; the path goes in the title. */
export function frameName(frame: string): string {
  const parts = String(frame).split('::');
  return parts.length > 1 ? parts.slice(1).join('::') : String(frame);
}

/** An outcome as a coloured chip; unknown outcomes are shown neutral, as written. */
export function outcomeClass(outcome: string | undefined): 'pass' | 'fail' | 'skip' | 'other' {
  if (outcome === 'passed') return 'pass';
  if (outcome === 'failed' || outcome === 'error' || outcome === 'crashed' || outcome === 'collection') return 'fail';
  if (outcome === 'skipped' || outcome === 'xfailed' || outcome === 'not run') return 'skip';
  return 'other';
}

export const pretty = (value: unknown): string => JSON.stringify(value, null, 2);

/** An event type this page does not know, as a title: `tests.flaky` → `Tests flaky`. */
export const humanise = (type: unknown): string =>
  String(type || 'event')
    .replace(/[._-]+/g, ' ')
    .replace(/^./, (c) => c.toUpperCase());
