import { readInsideSync } from '../workspace/inside';
import type { Node, Tree } from 'web-tree-sitter';
import { listDefinitions, type Definition } from './definitions';
import { findFunction } from './function-parts';
import { parsePython } from './parser';
import { decodeSource } from './source-text';

/** A test's source, found by its node id (`path::Class::test[param]` → `Class.test`). */
export async function testSource(workspaceRoot: string, nodeid: string): Promise<string | undefined> {
  return (await testSourceAt(workspaceRoot, nodeid))?.text;
}

/** A test's source and the line of its file it starts at (1-based, its decorators included). */
export async function testSourceAt(
  workspaceRoot: string,
  nodeid: string,
): Promise<{ text: string; line: number } | undefined> {
  const [file, ...rest] = nodeid.split('::');
  if (!file || !rest.length) return undefined;
  const qualname = rest.join('.').replace(/\[.*$/, '');
  let text: string;
  try {
    text = decodeSource(readInsideSync(workspaceRoot, file)).text;
  } catch {
    return undefined;
  }
  const tree = await parsePython(text);
  try {
    const found = findFunction(tree, qualname) ?? inherited(tree, qualname);
    return found
      ? {
          text: text.slice(found.outer.startIndex - found.outer.startPosition.column, found.node.endIndex),
          line: found.outer.startPosition.row + 1,
        }
      : undefined;
  } finally {
    tree.delete();
  }
}

/**
 * A test method a class of the file inherits from another class of the same file (a mixin that
 * several test classes share: more-itertools' `SeekableTest` runs `PeekableMixinTests.
 * test_passthrough`), found through the bases in the order Python's MRO would meet them first.
 */
function inherited(tree: Tree, qualname: string): Definition | undefined {
  const dot = qualname.lastIndexOf('.');
  if (dot === -1) return undefined;
  const definitions = listDefinitions(tree);
  const classes = new Map(definitions.filter((d) => d.kind === 'class').map((d) => [d.qualname, d] as const));
  const seen = new Set<string>();
  const search = (owner: string, depth: number): Definition | undefined => {
    const cls = classes.get(owner);
    if (!cls || seen.has(owner) || depth > 8) return undefined;
    seen.add(owner);
    for (const base of baseNames(cls.node)) {
      const found = findFunction(tree, `${base}.${qualname.slice(dot + 1)}`) ?? search(base, depth + 1);
      if (found) return found;
    }
    return undefined;
  };
  return search(qualname.slice(0, dot), 0);
}

/** The names of a class's bases written as plain names (`class T(Mixin, TestCase)`: Mixin, TestCase). */
function baseNames(cls: Node): string[] {
  const bases = cls.childForFieldName('superclasses');
  return (bases?.namedChildren ?? []).flatMap((base) => (base?.type === 'identifier' ? [base.text] : []));
}
