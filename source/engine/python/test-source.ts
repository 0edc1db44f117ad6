import { readInsideSync } from '../workspace/inside';
import { findFunction } from './function-parts';
import { parsePython } from './parser';
import { decodeSource } from './source-text';

/** A test's source, found by its node id (`path::Class::test[param]` → `Class.test`). */
export async function testSource(workspaceRoot: string, nodeid: string): Promise<string | undefined> {
  return (await testSourceAt(workspaceRoot, nodeid))?.text;
}

/** A test's source and the line of its file it starts at (1-based, its decorators included). */
export async function testSourceAt(workspaceRoot: string, nodeid: string): Promise<{ text: string; line: number } | undefined> {
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
    const found = findFunction(tree, qualname);
    return found ? { text: text.slice(found.outer.startIndex - found.outer.startPosition.column, found.node.endIndex), line: found.outer.startPosition.row + 1 } : undefined;
  } finally {
    tree.delete();
  }
}
