import { functionParts, type FunctionParts } from '../python/function-parts';

/** What the blanked target raises: the same as a hand-written stub. */
const BLANK_STATEMENT = 'raise NotImplementedError';
/** First statement of the instrumented target: records the call chain (see source/python/_tenet_probe.py). */
const PROBE_STATEMENT = '__import__("_tenet_probe").hit()';

function replaceBody(text: string, parts: FunctionParts, bodyLines: string): string {
  const header = text.slice(parts.outerStart, parts.headerEnd);
  const doc = parts.docstring ? `\n${parts.bodyIndent}${parts.docstring}` : '';
  return text.slice(0, parts.outerStart) + header + doc + `\n${parts.bodyIndent}${bodyLines}` + text.slice(parts.end);
}

/** Benchmark mode: decorators, signature and docstring stay; the body becomes `raise NotImplementedError`. */
export function blankFunction(text: string, parts: FunctionParts): string {
  return replaceBody(text, parts, BLANK_STATEMENT);
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
  return text.slice(0, parts.statementsStart) + `${probe}; ` + text.slice(parts.statementsStart);
}

const SIMPLE = new Set([
  'expression_statement', 'return_statement', 'raise_statement', 'pass_statement', 'assert_statement',
  'delete_statement', 'global_statement', 'nonlocal_statement', 'import_statement', 'import_from_statement',
  'future_import_statement', 'print_statement', 'exec_statement', 'break_statement', 'continue_statement',
  'type_alias_statement',
]);

export { functionParts };
