import { functionParts, type FunctionParts } from '../python-source/function-parts';

/** What the blanked target raises: the same as a hand-written stub. */
const BLANK_STATEMENT = 'raise NotImplementedError';
/** First statement of the instrumented target: records the call chain (see source/python/_tenet_probe). */
const PROBE_STATEMENT = '__import__("_tenet_probe").hit()';

function replaceBody(text: string, parts: FunctionParts, bodyLines: string): string {
  const header = text.slice(parts.outerStart, parts.headerEnd);
  const doc = parts.docstring ? `\n${parts.bodyIndent}${parts.docstring}` : '';
  return `${text.slice(0, parts.outerStart)}${header}${doc}\n${parts.bodyIndent}${bodyLines}${text.slice(parts.end)}`;
}

/**
 * Benchmark mode: decorators, signature and docstring stay; the body becomes `raise
 * NotImplementedError`. An async generator keeps a `yield` after it: without one it would be a
 * coroutine function, and `async for` over it fails with a TypeError instead of the
 * NotImplementedError of its first step.
 */
export function blankFunction(text: string, parts: FunctionParts): string {
  return replaceBody(
    text,
    parts,
    parts.asyncGenerator
      ? `${BLANK_STATEMENT}\n${parts.bodyIndent}yield  # unreachable: keeps this an async generator`
      : BLANK_STATEMENT,
  );
}

/**
 * The target with the probe (THM's, unless another is given) as its first statement, keeping the rest of its body (the stub, or the
 * blank). Where the first statement is a simple one the probe shares its line (`probe; pass`), so
 * line numbers in tracebacks match the un-instrumented file.
 */
export function instrumentFunction(text: string, parts: FunctionParts, probe = PROBE_STATEMENT): string {
  if (parts.statementsStart === undefined) {
    return replaceBody(text, parts, probe);
  }
  const statements = text.slice(parts.statementsStart, parts.end);
  const compound = !SIMPLE.has(parts.firstStatementType ?? '');
  if (parts.inlineBody || compound) {
    return replaceBody(text, parts, `${probe}\n${parts.bodyIndent}${statements}`);
  }
  return `${text.slice(0, parts.statementsStart)}${probe}; ${text.slice(parts.statementsStart)}`;
}

const SIMPLE = new Set([
  'expression_statement',
  'return_statement',
  'raise_statement',
  'pass_statement',
  'assert_statement',
  'delete_statement',
  'global_statement',
  'nonlocal_statement',
  'import_statement',
  'import_from_statement',
  'future_import_statement',
  'print_statement',
  'exec_statement',
  'break_statement',
  'continue_statement',
  'type_alias_statement',
]);

export { functionParts };

/** Where THM's probe went: the body, or a call probe for a target whose call runs none of its body. */
export interface InstrumentedTarget {
  text: string;
  /** Set when a generator or coroutine target could only be probed in its body (see instrumentTarget). */
  note?: string;
}

const PROBE_MODULE = '__import__("_tenet_probe")';

/**
 * THM's instrumentation of the target. A plain function gets the probe as its first statement. A
 * generator, async generator or coroutine runs none of its body when called, so a probe there
 * would record the stack of the first next() or await, not of the call: it is wrapped in a call
 * probe instead (see source/python/_tenet_probe), without moving a line —
 * around its innermost decorator (`@P.after(dec, LINE)`), else on the free (blank or comment) line
 * above it (`@P.calls(LINE)`), else rebound at the end of the module. A nested function with none
 * of these keeps the body probe, and the note says so.
 */
export function instrumentTarget(text: string, parts: FunctionParts): InstrumentedTarget {
  if (!parts.deferredBody) return { text: instrumentFunction(text, parts) };
  const line = lineOf(text, parts.statementsStart ?? parts.headerEnd + 1);
  // Only indices of `parts` are used here: the tree it was read from may be gone.
  const { definition } = parts;
  const innermost = parts.innermostDecorator;
  if (innermost) {
    return {
      text: `${text.slice(0, innermost.start)}${PROBE_MODULE}.after(${text.slice(innermost.start, innermost.end)}, ${line})${text.slice(innermost.end)}`,
    };
  }
  const lineStart = text.lastIndexOf('\n', parts.outerStart - 1) + 1;
  if (lineStart > 0) {
    const aboveStart = text.lastIndexOf('\n', lineStart - 2) + 1;
    const above = text.slice(aboveStart, lineStart - 1);
    const aboveLine = lineOf(text, aboveStart);
    // A coding declaration or shebang (lines 1-2) is not free.
    if (/^[ \t]*(#.*)?\r?$/.test(above) && !(aboveLine <= 2 && /^[ \t]*#(!|.*coding[:=])/.test(above))) {
      const comment = /#.*?(\r?)$/.exec(above);
      const decorator = `${parts.defIndent}@${PROBE_MODULE}.calls(${line})${comment ? `  ${comment[0]}` : /\r$/.test(above) ? '\r' : ''}`;
      return { text: text.slice(0, aboveStart) + decorator + text.slice(lineStart - 1) };
    }
  }
  if (!definition.qualname.includes('<locals>')) {
    const ending = text.endsWith('\n') ? '' : '\n';
    return {
      text: `${text}${ending}${PROBE_MODULE}.rebind(globals(), ${JSON.stringify(definition.qualname)}, ${line})\n`,
    };
  }
  return {
    text: instrumentFunction(text, parts),
    note:
      `${definition.qualname} is a generator or coroutine nested in a function, with no decorator and no free line above it: ` +
      'its chains are recorded where its body first runs (the first next() or await), not where it is called.',
  };
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < index; at = text.indexOf('\n', at + 1)) line++;
  return line;
}
