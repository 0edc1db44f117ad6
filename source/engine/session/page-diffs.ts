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
  const patch = structuredPatch('before', 'after', before, after, '', '', {
    context: lines <= WHOLE_BELOW ? WHOLE_BELOW : 4,
  });
  let added = 0;
  let removed = 0;
  for (const hunk of patch.hunks) {
    for (const line of hunk.lines) {
      if (line.startsWith('+')) added++;
      else if (line.startsWith('-')) removed++;
    }
  }
  // "\ No newline at end of file" markers say nothing about the code: the page leaves them out.
  const hunks = patch.hunks.map(({ oldStart, oldLines, newStart, newLines, lines: body }) => ({
    oldStart,
    oldLines,
    newStart,
    newLines,
    lines: body.filter((l) => !l.startsWith('\\')),
  }));
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
  while (
    first > 0 &&
    lines[first - 1]!.trimStart().startsWith('@') &&
    /^\s*/.exec(lines[first - 1]!)![0].length === indent
  )
    first--;
  let end = start + 1;
  // The signature may span lines (its closing parenthesis sits at the def's indentation).
  while (
    end < lines.length &&
    (!lines[end]!.trim() || /^\s*/.exec(lines[end]!)![0].length > indent || /^\s*[)\]]/.test(lines[end]!))
  )
    end++;
  while (end > start + 1 && !lines[end - 1]!.trim()) end--;
  return lines.slice(first, end).join('\n');
}

/** The target's function name in a session's target (`file::Class.name@LINE` → `name`). */
export const functionName = (target: string | undefined): string | undefined =>
  target?.split('::').at(-1)?.replace(/@\d+$/, '').split('.').at(-1);

/**
 * The function as the agent got it: cut out of the module shown in the task prompt (the stub, or
 * in benchmark mode the blanked function), else the prompt's signature and docstring. The prompt
 * templates (prompts/task.md, tdd-task.md) put the module second and the signature first.
 */
export function startingFunction(events: readonly EngineEvent[], given?: string): string | undefined {
  const start = events.find((e) => e.type === 'session.start');
  const target = given ?? (start?.type === 'session.start' ? start.target : undefined);
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
  const name = functionName(target);
  for (const message of messages) {
    if (message.role !== 'user' || !message.content.includes('Signature and docstring')) continue;
    const blocks = [...message.content.matchAll(CODE_BLOCK)].map((m) => m[1]!);
    const inModule = name && blocks[1] !== undefined ? functionIn(blocks[1], name) : undefined;
    const found = inModule ?? blocks[0];
    return found === undefined ? undefined : atColumnZero(found);
  }
  return undefined;
}

const DEF = (name?: string) => new RegExp(`^\\s*(async\\s+)?def\\s+${name ?? '\\w+'}\\s*\\(`);
const indentOf = (line: string) => /^[ \t]*/.exec(line)![0];

/**
 * Where the body of function `name` (else the first function) starts in `lines`: the index of its
 * first statement (blank and comment lines skipped), or undefined for none, or a body on the def's
 * own line. The signature ends at the first `:` outside brackets and strings.
 */
function bodyStart(lines: readonly string[], name?: string): number | undefined {
  let def = lines.findIndex((line) => DEF(name).test(line));
  if (def < 0 && name) def = lines.findIndex((line) => DEF().test(line));
  if (def < 0) return undefined;
  let depth = 0;
  for (let row = def; row < lines.length; row++) {
    const line = lines[row]!;
    for (let col = 0; col < line.length; col++) {
      const c = line[col]!;
      if (c === '#') break;
      if (c === '"' || c === "'") {
        const end = line.indexOf(c, col + 1);
        col = end < 0 ? line.length : end;
      } else if ('([{'.includes(c)) depth++;
      else if (')]}'.includes(c)) depth--;
      else if (c === ':' && depth === 0) {
        if (
          line
            .slice(col + 1)
            .replace(/#.*/, '')
            .trim()
        )
          return undefined;
        let first = row + 1;
        while (first < lines.length && (!lines[first]!.trim() || lines[first]!.trim().startsWith('#'))) first++;
        return first < lines.length ? first : undefined;
      }
    }
  }
  return undefined;
}

const OPENING = /^\s*[rRuUbBfF]{0,2}("""|'''|"|')/;

/** The rows of the docstring that starts at row `from` (its last row included), or undefined when that statement is none. */
function docstringAt(lines: readonly string[], from: number | undefined): { from: number; to: number } | undefined {
  if (from === undefined) return undefined;
  const quote = OPENING.exec(lines[from]!)?.[1];
  if (!quote) return undefined;
  const opened = lines[from]!.indexOf(quote) + quote.length;
  if (lines[from]!.indexOf(quote, opened) >= 0 || quote.length === 1) return { from, to: from };
  for (let row = from + 1; row < lines.length; row++) if (lines[row]!.includes(quote)) return { from, to: row };
  return undefined;
}

/**
 * A submission as tenet puts it in place, to diff against the function it replaces: one that
 * leaves the docstring out keeps the one already there (engine/task/replace-function.ts), so its
 * diff must not show the docstring deleted. The docstring goes in, at the submission's indentation,
 * before the body's first statement.
 */
export function asPlaced(submitted: string, current: string | undefined, name?: string): string {
  return atColumnZero(withDocstringKept(submitted, current, name));
}

/**
 * A definition moved left to column 0, by the indentation of its first line: a method cut out
 * of its class sits four columns in, while the agent submits it at column 0 (or the other way
 * round), and a diff of the two would show every line changed.
 */
export function atColumnZero(code: string): string {
  const lines = code.split('\n');
  const first = lines.find((line) => line.trim());
  const indent = first ? indentOf(first) : '';
  if (!indent) return code;
  return lines.map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line)).join('\n');
}

function withDocstringKept(submitted: string, current: string | undefined, name?: string): string {
  if (!current) return submitted;
  const had = current.split('\n');
  const docstring = docstringAt(had, bodyStart(had, name));
  if (!docstring) return submitted;
  const lines = submitted.split('\n');
  const body = bodyStart(lines, name);
  if (body === undefined || docstringAt(lines, body)) return submitted;
  const [from, to] = [indentOf(had[docstring.from]!), indentOf(lines[body]!)];
  const moved = had
    .slice(docstring.from, docstring.to + 1)
    .map((line) => (line.startsWith(from) ? to + line.slice(from.length) : line));
  return [...lines.slice(0, body), ...moved, ...lines.slice(body)].join('\n');
}

/**
 * The function the agent got, without its decorators when the submission has none: a submission
 * may leave them out (they stay in place), and the diff must not show them removed.
 */
export function withoutDecorators(starting: string, submitted: string): string {
  const decorated = (text: string) => /^\s*@/.test(text.replace(/^(\s*(#.*|import .*|from .*)?\n)*/, ''));
  if (!decorated(starting) || decorated(submitted)) return starting;
  const lines = starting.split('\n');
  const def = lines.findIndex((line) => /^\s*(async\s+)?def\s/.test(line));
  return def < 0 ? starting : lines.slice(def).join('\n');
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
  let name = functionName(start?.type === 'session.start' ? start.target : undefined);
  // A plan's target starts afresh: its first submission is against its own stub.
  let target: string | undefined;
  let from = 0;
  events.forEach((event, index) => {
    if (event.type === 'plan.target') {
      ({ target } = event);
      name = functionName(target);
      from = index;
      code = undefined;
      starting = null;
      codeNumber = 0;
    } else if (event.type === 'submission') {
      if (starting === null) starting = startingFunction(events.slice(from), target);
      const placed = asPlaced(event.code, code ?? starting, name);
      const before = code ?? withoutDecorators(starting ?? '', placed);
      const against =
        code !== undefined
          ? 'previous submission'
          : starting !== undefined
            ? blank
              ? 'blanked function'
              : 'stub'
            : 'unknown';
      diffs[index] = { against, number: ++codeNumber, ...lineDiff(before, placed) };
      if (event.ok) code = placed;
    } else if (event.type === 'tests.submission') {
      diffs[index] = {
        against: tests !== undefined ? 'previous tests' : 'nothing (a new file)',
        number: ++testsNumber,
        ...lineDiff(tests ?? '', event.code),
      };
      if (event.ok) tests = event.code;
    }
  });
  return diffs;
}
