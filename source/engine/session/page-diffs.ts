import { structuredPatch } from 'diff';
import type { EngineEvent } from '../events';
import type { Message } from '../protocol/messages';

/**
 * What the session page shows for each submission: a line diff against what the agent replaced.
 * Computed here, once, so the page's script needs no diff algorithm of its own.
 */
export interface SubmissionDiff {
  /** What the code is compared with. */
  against: 'stub' | 'blanked function' | 'previous submission' | 'nothing (a new file)' | 'previous tests' | 'unknown';
  /** 1-based number of this submission of its kind (code or tests). */
  number: number;
  added: number;
  removed: number;
  hunks: { oldStart: number; oldLines: number; newStart: number; newLines: number; lines: string[] }[];
}

/** Short code is shown whole (every line in context); past this many lines, 4 lines around each change. */
const WHOLE_BELOW = 80;

/** A line diff of two versions of some code, whole when short (the TUI's transcript shows it too). */
export function lineDiff(before: string, after: string): Pick<SubmissionDiff, 'added' | 'removed' | 'hunks'> {
  const lines = Math.max(before.split('\n').length, after.split('\n').length);
  const patch = structuredPatch('before', 'after', before, after, '', '', { context: lines <= WHOLE_BELOW ? WHOLE_BELOW : 4 });
  let added = 0;
  let removed = 0;
  for (const hunk of patch.hunks) {
    for (const line of hunk.lines) {
      if (line.startsWith('+')) added++;
      else if (line.startsWith('-')) removed++;
    }
  }
  // "\ No newline at end of file" markers say nothing about the code: the page leaves them out.
  const hunks = patch.hunks.map(({ oldStart, oldLines, newStart, newLines, lines: body }) => ({ oldStart, oldLines, newStart, newLines, lines: body.filter((l) => !l.startsWith('\\')) }));
  return { added, removed, hunks };
}

const CODE_BLOCK = /```python\n([\s\S]*?)\n```/g;

/**
 * The target's definition (decorators and all) cut out of a module's text: from its `def` line to
 * the first later line that is indented no deeper and is not blank.
 */
export function functionIn(moduleText: string, name: string): string | undefined {
  const lines = moduleText.split('\n');
  const start = lines.findIndex((line) => new RegExp(`^\\s*(async\\s+)?def\\s+${name}\\s*\\(`).test(line));
  if (start < 0) return undefined;
  const indent = /^\s*/.exec(lines[start]!)![0].length;
  let first = start;
  while (first > 0 && lines[first - 1]!.trimStart().startsWith('@') && /^\s*/.exec(lines[first - 1]!)![0].length === indent) first--;
  let end = start + 1;
  // The signature may span lines (its closing parenthesis sits at the def's indentation).
  while (end < lines.length && (!lines[end]!.trim() || /^\s*/.exec(lines[end]!)![0].length > indent || /^\s*[)\]]/.test(lines[end]!))) end++;
  while (end > start + 1 && !lines[end - 1]!.trim()) end--;
  return lines.slice(first, end).join('\n');
}

/**
 * The function as the agent got it: cut out of the module shown in the task prompt (the stub, or
 * in benchmark mode the blanked function), else the prompt's signature and docstring. The prompt
 * templates (prompts/task.md, tdd-task.md) put the module second and the signature first.
 */
export function startingFunction(events: readonly EngineEvent[]): string | undefined {
  const start = events.find((e) => e.type === 'session.start');
  const target = start?.type === 'session.start' ? start.target : undefined;
  for (const event of events) {
    if (event.type !== 'model.request') continue;
    const found = startingFunctionIn(target, event.newMessages ?? []);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The same, from the messages of one request: undefined when none is the task prompt. */
export function startingFunctionIn(target: string | undefined, messages: readonly Message[]): string | undefined {
  // `file::Class.name@LINE` names one of several definitions; the function's name has no `@LINE`.
  const name = target?.split('::').at(-1)!.replace(/@\d+$/, '').split('.').at(-1);
  for (const message of messages) {
    if (message.role !== 'user' || !message.content.includes('Signature and docstring')) continue;
    const blocks = [...message.content.matchAll(CODE_BLOCK)].map((m) => m[1]!);
    const inModule = name && blocks[1] !== undefined ? functionIn(blocks[1], name) : undefined;
    return inModule ?? blocks[0];
  }
  return undefined;
}

/**
 * Each submission's diff, by the event's index in `events`: code against the previous accepted
 * submission (the first against the function as the agent got it); the agent's tests (TDD)
 * against their previous version. A rejected submission (a syntax error) is compared with what
 * stayed in place, and does not become the next one's base.
 */
export function submissionDiffs(events: readonly EngineEvent[]): Record<number, SubmissionDiff> {
  const diffs: Record<number, SubmissionDiff> = {};
  const start = events.find((e) => e.type === 'session.start');
  const blank = start?.type === 'session.start' && start.mode === 'blank';
  let code: string | undefined;
  let tests: string | undefined;
  let codeNumber = 0;
  let testsNumber = 0;
  let starting: string | undefined | null = null;
  events.forEach((event, index) => {
    if (event.type === 'submission') {
      if (starting === null) starting = startingFunction(events);
      const before = code ?? starting ?? '';
      const against = code !== undefined ? 'previous submission' : starting !== undefined ? (blank ? 'blanked function' : 'stub') : 'unknown';
      diffs[index] = { against, number: ++codeNumber, ...lineDiff(before, event.code) };
      if (event.ok) code = event.code;
    } else if (event.type === 'tests.submission') {
      diffs[index] = { against: tests !== undefined ? 'previous tests' : 'nothing (a new file)', number: ++testsNumber, ...lineDiff(tests ?? '', event.code) };
      if (event.ok) tests = event.code;
    }
  });
  return diffs;
}
