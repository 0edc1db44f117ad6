import { join } from 'node:path';
import type { Node } from 'web-tree-sitter';
import { isTestPath } from '../index/repo-index';
import { listDefinitions, type Definition } from '../python-source/definitions';
import { isDocstring, isStubBody } from '../python-source/function-parts';
import { isOverloadStub, moduleImports, overloadSpellings } from '../python-source/overloads';
import { parsePython } from '../python-source/parser';
import { readSource } from '../python-source/source-text';
import { listPythonFiles } from '../workspace/walk';

/**
 * Fewest statements a body needs to make a task, counted through every nested block (a nested
 * `def` or `class` counts as one) and after the docstring. Below three, bodies are delegations,
 * trivial getters and setters, `return expression` one-liners: nothing to generate that the
 * signature does not already say. Three still admits a guard, a loop and a result, the smallest
 * functions that RepoEval-style function tasks have (RepoCod's average is far larger, 38 lines).
 */
export const MIN_STATEMENTS = 3;

/** A function that may become a task, as tenet names it (Python's `__qualname__`). */
export interface ScannedFunction {
  /** Posix path relative to the repository root. */
  file: string;
  qualname: string;
  name: string;
  /** First line (decorators included), the `def` line and the last line, 1-based. */
  startLine: number;
  defLine: number;
  endLine: number;
  statements: number;
  /** Another function of the file has the same qualname (a property's getter and setter): `@line` tells them apart. */
  ambiguous: boolean;
}

export type Exclusion = 'nested' | 'abstract' | 'overload' | 'stub' | 'short' | 'unparsable file';

export interface ScanResult {
  /** Modules scanned (test files and conftest.py are not). */
  files: number;
  testFiles: number;
  /** Functions defined in the scanned modules. */
  functions: number;
  /** In file and line order. */
  eligible: ScannedFunction[];
  excluded: Record<Exclusion, number>;
}

/**
 * Every function of the repository's non-test modules that is worth blanking, and why the others
 * are not; of the modules `only` accepts (a path relative to the repository), when given.
 */
export async function scanFunctions(
  repoDir: string,
  minStatements = MIN_STATEMENTS,
  only?: (file: string) => boolean,
): Promise<ScanResult> {
  const result: ScanResult = {
    files: 0,
    testFiles: 0,
    functions: 0,
    eligible: [],
    excluded: { nested: 0, abstract: 0, overload: 0, stub: 0, short: 0, 'unparsable file': 0 },
  };
  for (const file of listPythonFiles(repoDir)) {
    if (isTestPath(file)) {
      result.testFiles++;
      continue;
    }
    if (only && !only(file)) continue;
    result.files++;
    const tree = await parsePython(readSource(join(repoDir, file)).text);
    try {
      const functions = listDefinitions(tree).filter((d) => d.kind === 'function');
      result.functions += functions.length;
      // A module Python cannot import fails every test that imports it, blank or not.
      if (tree.rootNode.hasError) {
        result.excluded['unparsable file'] += functions.length;
        continue;
      }
      const spellings = overloadSpellings(moduleImports(tree));
      // Overload stubs do not make a name ambiguous: a target resolves to the implementation.
      const perQualname = new Map<string, number>();
      for (const d of functions)
        if (!isOverloadStub(d, spellings)) perQualname.set(d.qualname, (perQualname.get(d.qualname) ?? 0) + 1);
      for (const d of functions) {
        const exclusion = exclusionOf(d, minStatements, spellings);
        if (exclusion) {
          result.excluded[exclusion]++;
          continue;
        }
        result.eligible.push({
          file,
          qualname: d.qualname,
          name: d.name,
          startLine: d.startLine,
          defLine: d.node.startPosition.row + 1,
          endLine: d.endLine,
          statements: countStatements(d.node.childForFieldName('body')),
          ambiguous: (perQualname.get(d.qualname) ?? 0) > 1,
        });
      }
    } finally {
      tree.delete();
    }
  }
  return result;
}

function exclusionOf(
  d: Definition,
  minStatements: number,
  overloads: ReadonlySet<string> = overloadSpellings([]),
): Exclusion | undefined {
  // Blanking a nested function blanks a closure its outer function builds: the outer one is the task.
  if (d.qualname.includes('<locals>')) return 'nested';
  const decorators = decoratorNames(d);
  if (decorators.some((name) => /^abstract(method|property|classmethod|staticmethod)$/.test(name))) return 'abstract';
  if (isOverloadStub(d, overloads)) return 'overload';
  if (isStubBody(d.node)) return 'stub';
  if (countStatements(d.node.childForFieldName('body')) < minStatements) return 'short';
  return undefined;
}

/** `@functools.cache` → `cache`, `@x.setter` → `setter`, `@abc.abstractmethod` → `abstractmethod`. */
function decoratorNames(d: Definition): string[] {
  if (d.outer === d.node) return [];
  return d.outer.namedChildren
    .filter((c): c is Node => c?.type === 'decorator')
    .map((c) => c.text.replace(/^@\s*/, '').replace(/\(.*$/s, '').trim().split('.').pop() ?? '');
}

const CLAUSES = new Set([
  'elif_clause',
  'else_clause',
  'except_clause',
  'except_group_clause',
  'finally_clause',
  'case_clause',
]);
const DEFINITIONS = new Set(['function_definition', 'class_definition', 'decorated_definition']);

/** Statements of a body after its docstring, nested blocks included; a nested definition counts once. */
function countStatements(body: Node | null): number {
  const inBlock = (block: Node, skipDocstring: boolean): number => {
    const statements = block.namedChildren.filter((c): c is Node => !!c && c.type !== 'comment');
    const counted = skipDocstring && isDocstring(statements[0]) ? statements.slice(1) : statements;
    return counted.reduce((sum, s) => sum + 1 + (DEFINITIONS.has(s.type) ? 0 : inside(s)), 0);
  };
  // The blocks of a compound statement: its body, and those of its elif/else/except/finally/case clauses.
  const inside = (node: Node): number =>
    node.namedChildren.reduce((sum, child) => {
      if (!child) return sum;
      if (child.type === 'block') return sum + inBlock(child, false);
      if (CLAUSES.has(child.type)) return sum + inside(child);
      return sum;
    }, 0);
  return body ? inBlock(body, true) : 0;
}
