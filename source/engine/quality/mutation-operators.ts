import type { Node } from 'web-tree-sitter';
import { isDocstring } from '../python-source/function-parts';

/**
 * The mutation operators, each a small, classic change a good test notices:
 *
 * | operator     | change                                                                         |
 * |--------------|--------------------------------------------------------------------------------|
 * | `arithmetic` | `+`↔`-`, `*`↔`/`, `//`→`/`, `%`→`/`, `**`→`*`, `<<`↔`>>`, `&`↔`|`, `^`→`&`        |
 * | `augmented`  | the same table on `+=`, `-=`, `*=` …                                           |
 * | `comparison` | `<`↔`<=`, `>`↔`>=`, `==`↔`!=`, `is`↔`is not`, `in`↔`not in`                    |
 * | `boolean`    | `and`↔`or`                                                                     |
 * | `constant`   | `True`↔`False`                                                                 |
 * | `negation`   | `not x` → `x`                                                                  |
 * | `number`     | an integer literal n → n+1 (so 0 → 1), in its own base                         |
 * | `statement`  | a simple statement → `pass`: expression statements (calls, assignments), `raise`, `assert`, `del`, `break`, `continue` |
 * | `return`     | `return X` → `return None`                                                     |
 *
 * One replacement per operator token keeps the count proportional to the code and avoids near
 * duplicates (`/` → `*` and `/` → `//` rarely tell different tests apart). What is never touched:
 * the docstring, anything inside a string (f-string interpolations included: editing them is
 * editing text), annotations (a local variable's annotation is never evaluated, so mutating it
 * would only add mutants no test can kill), and statements whose removal changes what kind of
 * function this is (`yield`) or how names bind (`global`, `nonlocal`, imports).
 */
export type MutationOperator =
  | 'arithmetic'
  | 'augmented'
  | 'comparison'
  | 'boolean'
  | 'constant'
  | 'negation'
  | 'number'
  | 'statement'
  | 'return';

/** Order of operators that edit at the same offset, so the list is the same on every run. */
export const OPERATOR_ORDER: MutationOperator[] = [
  'statement',
  'return',
  'negation',
  'arithmetic',
  'augmented',
  'comparison',
  'boolean',
  'constant',
  'number',
];

/** One edit of the module text (JS string indices), before it is checked to parse. */
export interface Candidate {
  operator: MutationOperator;
  start: number;
  end: number;
  replacement: string;
  /** The node where the change is, for line and column. */
  node: Node;
  /** `from → to` for the description. */
  from: string;
  to: string;
}

const ARITHMETIC: Record<string, string> = {
  '+': '-',
  '-': '+',
  '*': '/',
  '/': '*',
  '//': '/',
  '%': '/',
  '**': '*',
  '<<': '>>',
  '>>': '<<',
  '&': '|',
  '|': '&',
  '^': '&',
};
const COMPARISON: Record<string, string> = {
  '<': '<=',
  '<=': '<',
  '>': '>=',
  '>=': '>',
  '==': '!=',
  '!=': '==',
  is: 'is not',
  'is not': 'is',
  in: 'not in',
  'not in': 'in',
};
const BOOLEAN: Record<string, string> = { and: 'or', or: 'and' };

/** Simple statements whose removal is a meaningful mutant. */
const REMOVABLE = new Set([
  'expression_statement',
  'raise_statement',
  'assert_statement',
  'delete_statement',
  'break_statement',
  'continue_statement',
]);

/** Subtrees never entered: text, and annotations (see above). */
const SKIPPED = new Set(['string', 'concatenated_string', 'type', 'comment']);

/** Nodes that start a new function scope: a `yield` inside one does not belong to the statement around it. */
const SCOPES = new Set(['function_definition', 'lambda', 'class_definition']);

/** The candidates inside one function body (a `block` node), in source order. */
export function collectCandidates(body: Node, text: string): Candidate[] {
  const out: Candidate[] = [];
  const statements = body.namedChildren.filter((c): c is Node => !!c && c.type !== 'comment');
  const docstring = isDocstring(statements[0]) ? statements[0] : undefined;
  for (const statement of statements) if (statement !== docstring) visit(statement, text, out);
  return out;
}

function visit(node: Node, text: string, out: Candidate[]): void {
  if (SKIPPED.has(node.type)) return;
  candidatesAt(node, text, out);
  for (const child of node.namedChildren) if (child) visit(child, text, out);
}

function token(out: Candidate[], operator: MutationOperator, node: Node, table: Record<string, string>): void {
  const to = table[node.type];
  if (to === undefined) return;
  out.push({ operator, start: node.startIndex, end: node.endIndex, replacement: to, node, from: node.type, to });
}

function candidatesAt(node: Node, text: string, out: Candidate[]): void {
  switch (node.type) {
    case 'binary_operator': {
      const op = node.childForFieldName('operator');
      if (op) token(out, 'arithmetic', op, ARITHMETIC);
      return;
    }
    case 'augmented_assignment': {
      const op = node.childForFieldName('operator');
      const to = op ? ARITHMETIC[op.type.slice(0, -1)] : undefined;
      if (op && to !== undefined)
        out.push({
          operator: 'augmented',
          start: op.startIndex,
          end: op.endIndex,
          replacement: `${to}=`,
          node: op,
          from: op.type,
          to: `${to}=`,
        });
      return;
    }
    case 'comparison_operator':
      // `is not` and `not in` are one operator token each, whatever the spacing between the words.
      for (const op of node.childrenForFieldName('operators')) token(out, 'comparison', op, COMPARISON);
      return;
    case 'boolean_operator': {
      const op = node.childForFieldName('operator');
      if (op) token(out, 'boolean', op, BOOLEAN);
      return;
    }
    case 'true':
    case 'false': {
      const to = node.type === 'true' ? 'False' : 'True';
      out.push({
        operator: 'constant',
        start: node.startIndex,
        end: node.endIndex,
        replacement: to,
        node,
        from: node.text,
        to,
      });
      return;
    }
    case 'not_operator': {
      const argument = node.childForFieldName('argument');
      // The operand binds tighter than `not`, so it stands wherever `not x` stood.
      if (argument)
        out.push({
          operator: 'negation',
          start: node.startIndex,
          end: node.endIndex,
          replacement: argument.text,
          node,
          from: short(node.text),
          to: short(argument.text),
        });
      return;
    }
    case 'integer': {
      const next = incremented(node.text);
      if (next !== undefined)
        out.push({
          operator: 'number',
          start: node.startIndex,
          end: node.endIndex,
          replacement: next,
          node,
          from: node.text,
          to: next,
        });
      return;
    }
    case 'return_statement': {
      const value = node.namedChildren.find((c): c is Node => !!c && c.type !== 'comment');
      if (!value || value.type === 'none') return;
      out.push({
        operator: 'return',
        start: value.startIndex,
        end: value.endIndex,
        replacement: keepLines('None', value, text, true),
        node,
        from: short(node.text),
        to: 'return None',
      });
      return;
    }
    default:
      if (REMOVABLE.has(node.type) && removable(node)) {
        out.push({
          operator: 'statement',
          start: node.startIndex,
          end: node.endIndex,
          replacement: keepLines('pass', node, text, false),
          node,
          from: short(node.text),
          to: 'pass',
        });
      }
  }
}

function removable(statement: Node): boolean {
  if (statement.type !== 'expression_statement') return true;
  const only = statement.namedChildCount === 1 ? statement.namedChild(0) : null;
  // A bare string or `...` does nothing: removing it gives a mutant no test can kill.
  if (only && (only.type === 'string' || only.type === 'concatenated_string' || only.type === 'ellipsis')) return false;
  return !containsYield(statement);
}

function containsYield(node: Node): boolean {
  if (node.type === 'yield') return true;
  if (SCOPES.has(node.type)) return false;
  return node.namedChildren.some((c) => !!c && containsYield(c));
}

/**
 * The replacement for a span that covers several lines, padded with as many newlines so every
 * later line keeps its number (tracebacks, warnings and `inspect` stay as in the original). An
 * expression can carry them inside parentheses; a statement only when nothing follows it on its
 * last line (`a = f(\n x); b = 1` cannot become `pass\n; b = 1`), else it is joined onto one line.
 */
function keepLines(replacement: string, node: Node, text: string, expression: boolean): string {
  const newlines = node.endPosition.row - node.startPosition.row;
  if (newlines === 0) return replacement;
  if (expression) return `(${replacement}${'\n'.repeat(newlines)})`;
  const lineEnd = text.indexOf('\n', node.endIndex);
  const rest = text.slice(node.endIndex, lineEnd === -1 ? text.length : lineEnd);
  return /^\s*(#.*)?$/.test(rest) ? `${replacement}${'\n'.repeat(newlines)}` : replacement;
}

/** n → n+1 in the literal's own base; undefined for imaginary (`1j`) and Python 2 long (`1L`) literals. */
export function incremented(literal: string): string | undefined {
  if (/[jJlL]$/.test(literal)) return undefined;
  let value: bigint;
  try {
    // JavaScript reads Python's integer forms once the digit separators are gone: 0x1F, 0o17, 0b101, 1_000.
    value = BigInt(literal.replaceAll('_', ''));
  } catch {
    return undefined;
  }
  const prefix = /^0[xXoObB]/.exec(literal)?.[0] ?? '';
  const radix = { x: 16, o: 8, b: 2 }[prefix.slice(1).toLowerCase()] ?? 10;
  const digits = (value + 1n).toString(radix);
  return prefix + (/[A-F]/.test(literal.slice(prefix.length)) ? digits.toUpperCase() : digits);
}

/** A node's text on one line, cut to a readable length for descriptions. */
export function short(code: string, max = 40): string {
  const flat = code.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
