import type { Node, Tree } from 'web-tree-sitter';
import { listDefinitions, type Definition } from '../python-source/definitions';
import { functionParts, isDocstring } from '../python-source/function-parts';
import { parsePython } from '../python-source/parser';

/** Why submitted code was refused, worded for the model to act on. */
export class RejectedCode extends Error {}

/**
 * Drops a Markdown fence around the code (models often add one) and moves it left by the
 * indentation of its first statement. The content of a string that is a value stays byte for
 * byte (see valueRows).
 */
export async function cleanCode(code: string): Promise<string> {
  let text = code.replace(/\r\n/g, '\n');
  const fenced = /^\s*```[\w+-]*\n([\s\S]*?)\n```\s*$/.exec(text);
  if (fenced) text = fenced[1]!;
  const raw = text.split('\n');
  // The first line that is neither blank nor a comment starts a statement: no line of code is left of it.
  const first = raw.find((l) => l.trim() && !l.trimStart().startsWith('#'));
  const indent = first ? /^[ \t]*/.exec(first)![0] : '';
  const lines = raw.map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l.trimStart()));
  if (indent) {
    const tree = await parsePython(lines.join('\n'));
    try {
      for (const row of valueRows(tree)) lines[row] = raw[row]!;
    } finally {
      tree.delete();
    }
  }
  return `${lines.join('\n').replace(/^\n+|\s+$/g, '')}\n`;
}

function firstError(node: Node): Node | undefined {
  if (node.type === 'ERROR' || node.isMissing) return node;
  for (const child of node.children) {
    if (child && (child.hasError || child.isMissing || child.type === 'ERROR')) {
      const found = firstError(child);
      if (found) return found;
    }
  }
  return node.hasError ? node : undefined;
}

function syntaxProblem(tree: Tree, text: string): string | undefined {
  if (!tree.rootNode.hasError) return undefined;
  const error = firstError(tree.rootNode) ?? tree.rootNode;
  const line = error.startPosition.row + 1;
  const source = text.split('\n')[line - 1] ?? '';
  return `line ${line}, column ${error.startPosition.column + 1}${error.isMissing ? ` (missing ${error.type})` : ''}:\n    ${source.trim()}`;
}

/**
 * Lines (0-based) that start inside a multi-line string that is a value: moving them would change
 * what the program computes (a `textwrap.dedent("""…""")`, SQL, an expected output), so they stay
 * as the model wrote them. A string that is a statement by itself (a docstring, or one used as a
 * comment) is text about the code: its value is dropped, or read through `inspect.cleandoc` (and
 * since Python 3.13 dedented by the compiler), so its lines move with the code like a comment's.
 */
function valueRows(tree: Tree): Set<number> {
  const inside = new Set<number>();
  const visit = (node: Node) => {
    if (isDocstring(node)) return;
    if (node.type === 'string' && node.endPosition.row > node.startPosition.row) {
      for (let row = node.startPosition.row + 1; row <= node.endPosition.row; row++) inside.add(row);
      return;
    }
    for (const child of node.namedChildren) if (child && child.endPosition.row > child.startPosition.row) visit(child);
  };
  visit(tree.rootNode);
  return inside;
}

export interface Submission {
  /** The whole new module text. */
  text: string;
  /** 1-based lines of the new function (decorators included) in the new text. */
  startLine: number;
  endLine: number;
  /** Import statements the code brought, added at the top of the module. */
  addedImports: string[];
}

interface Parsed {
  imports: string[];
  decorators: string[];
  /** The def (no decorators), at column 0. */
  def: string;
  name: string;
  protectedRows: Set<number>;
  defRow: number;
  /** Lines from the def line to the body's first statement, when the body starts on its own line. */
  bodyOffset?: number;
  hasDocstring: boolean;
}

async function parseSubmission(code: string, expectedName: string): Promise<Parsed> {
  const text = await cleanCode(code);
  if (!text.trim()) throw new RejectedCode('The code is empty. Submit the complete function definition (def ...).');
  const tree = await parsePython(text);
  try {
    const problem = syntaxProblem(tree, text);
    if (problem)
      throw new RejectedCode(
        `The code does not parse (Python syntax error at ${problem}).\nFix it and submit the whole function again.`,
      );
    const imports: string[] = [];
    const defs: Node[] = [];
    const others: Node[] = [];
    for (const node of tree.rootNode.namedChildren) {
      if (!node || node.type === 'comment') continue;
      if (
        node.type === 'import_statement' ||
        node.type === 'import_from_statement' ||
        node.type === 'future_import_statement'
      )
        imports.push(node.text);
      else if (
        node.type === 'function_definition' ||
        (node.type === 'decorated_definition' && node.childForFieldName('definition')?.type === 'function_definition')
      )
        defs.push(node);
      else others.push(node);
    }
    if (defs.length !== 1 || others.length) {
      const names = defs.map(
        (d) =>
          (d.type === 'decorated_definition' ? d.childForFieldName('definition')! : d).childForFieldName('name')?.text,
      );
      throw new RejectedCode(
        `Submit exactly one function definition, \`${expectedName}\` (imports it needs may come first). ` +
          (defs.length > 1
            ? `The code defines ${defs.length} functions (${names.join(', ')}); nest helpers inside \`${expectedName}\` or use existing ones.`
            : '') +
          (defs.length === 0 ? 'The code defines no function.' : '') +
          (others.length
            ? ` Remove the other top-level code (${others.map((o) => o.type.replace(/_/g, ' ')).join(', ')}).`
            : ''),
      );
    }
    const outer = defs[0]!;
    const fn = outer.type === 'decorated_definition' ? outer.childForFieldName('definition')! : outer;
    const name = fn.childForFieldName('name')?.text ?? '';
    if (name !== expectedName) {
      throw new RejectedCode(
        `The code defines \`${name}\`, but the function to implement is \`${expectedName}\`. Keep its name and signature.`,
      );
    }
    const decorators =
      outer === fn ? [] : outer.namedChildren.filter((c) => c?.type === 'decorator').map((c) => c!.text);
    const protectedRows = valueRows(tree);
    const first = fn.childForFieldName('body')?.namedChildren.find((c) => c?.type !== 'comment');
    const bodyOffset =
      first && first.startPosition.row > fn.startPosition.row
        ? first.startPosition.row - fn.startPosition.row
        : undefined;
    return {
      imports,
      decorators,
      def: text.slice(fn.startIndex, fn.endIndex),
      name,
      protectedRows,
      defRow: fn.startPosition.row,
      ...(bodyOffset !== undefined ? { bodyOffset } : {}),
      hasDocstring: isDocstring(first),
    };
  } finally {
    tree.delete();
  }
}

function indentDef(def: string, indent: string, protectedRows: Set<number>, defRow: number): string {
  return def
    .split('\n')
    .map((line, i) => (line.trim() && !protectedRows.has(defRow + i) ? indent + line : line))
    .join('\n');
}

function findCurrent(definitions: Definition[], qualname: string, nearLine: number): Definition | undefined {
  return definitions
    .filter((d) => d.kind === 'function' && d.qualname === qualname)
    .sort((a, b) => Math.abs(a.startLine - nearLine) - Math.abs(b.startLine - nearLine))[0];
}

/** Where new imports go: after the last top-level import, else after the module docstring. */
function importInsertionPoint(tree: Tree, text: string): number {
  let at = 0;
  for (const node of tree.rootNode.namedChildren) {
    if (!node) continue;
    if (
      node.type === 'import_statement' ||
      node.type === 'import_from_statement' ||
      node.type === 'future_import_statement'
    )
      at = node.endIndex;
    else if (
      at === 0 &&
      node.type === 'expression_statement' &&
      node.namedChild(0)?.type === 'string' &&
      node.startIndex === text.search(/\S/)
    )
      at = node.endIndex;
    else if (node.type !== 'comment') break;
  }
  return at;
}

/**
 * Replaces the target function in a module with submitted code: a complete `def` at any
 * indentation, re-indented to the target's place; decorators the code omits are kept; leading
 * imports are added at the top of the module. Refuses code that does not parse or defines
 * something else, with a message the model can act on.
 */
export async function replaceFunction(
  moduleText: string,
  qualname: string,
  nearLine: number,
  code: string,
): Promise<Submission> {
  const name = qualname.split('.').pop()!;
  const parsed = await parseSubmission(code, name);
  let text = moduleText;
  const tree = await parsePython(text);
  const hadErrors = tree.rootNode.hasError;
  let addedImports: string[] = [];
  try {
    const current = findCurrent(listDefinitions(tree), qualname, nearLine);
    if (!current) throw new RejectedCode(`The target ${qualname} is no longer in the module; this is a tenet error.`);
    const outerStart = current.outer.startIndex;
    const lineStart = text.lastIndexOf('\n', outerStart - 1) + 1;
    const indent = /^[ \t]*/.exec(text.slice(lineStart, outerStart))![0];
    const original =
      current.outer === current.node
        ? []
        : current.outer.namedChildren.filter((c) => c?.type === 'decorator').map((c) => c!.text);
    const normalize = (d: string) => d.replace(/\s+/g, '');
    const own = new Set(parsed.decorators.map(normalize));
    const decorators = [...original.filter((d) => !own.has(normalize(d))), ...parsed.decorators];
    let body = indentDef(parsed.def, indent, parsed.protectedRows, parsed.defRow);
    // Models often leave the docstring out: keep the one the developer wrote, its lines moved to the code's body.
    const parts = functionParts(text, current);
    if (parts.docstring && !parsed.hasDocstring && parsed.bodyOffset !== undefined) {
      const lines = body.split('\n');
      const bodyIndent = /^[ \t]*/.exec(lines[parsed.bodyOffset] ?? '')![0];
      const docstring = parts.docstring
        .split('\n')
        .map((line, i) =>
          i && line.startsWith(parts.bodyIndent) ? bodyIndent + line.slice(parts.bodyIndent.length) : line,
        );
      lines.splice(parsed.bodyOffset, 0, ...docstring.map((line, i) => (i ? line : bodyIndent + line)));
      body = lines.join('\n');
    }
    // Inserted at outerStart, which already follows the first line's indentation.
    const replacement = [...decorators.map((d) => indent + d), body].join('\n').slice(indent.length);
    text = text.slice(0, outerStart) + replacement + text.slice(current.node.endIndex);
    const existing = new Set(text.split('\n').map((l) => l.trim()));
    addedImports = parsed.imports.filter((i) => !existing.has(i.trim()));
  } finally {
    tree.delete();
  }
  if (addedImports.length) {
    const withImports = await parsePython(text);
    try {
      const at = importInsertionPoint(withImports, text);
      const block = addedImports.join('\n');
      text = at === 0 ? `${block}\n${text}` : `${text.slice(0, at)}\n${block}${text.slice(at)}`;
    } finally {
      withImports.delete();
    }
  }
  const finalTree = await parsePython(text);
  try {
    const placed = findCurrent(listDefinitions(finalTree), qualname, nearLine + addedImports.length);
    if (!placed)
      throw new RejectedCode(`The code was placed but ${qualname} cannot be found afterwards; this is a tenet error.`);
    const problem = hadErrors ? undefined : syntaxProblem(finalTree, text);
    if (problem)
      throw new RejectedCode(
        `The code does not fit in the module at the target's place (syntax error at ${problem}). Check its indentation.`,
      );
    return { text, startLine: placed.startLine, endLine: placed.endLine, addedImports };
  } finally {
    finalTree.delete();
  }
}
