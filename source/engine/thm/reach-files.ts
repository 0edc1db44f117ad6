import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Node } from 'web-tree-sitter';
import { listDefinitions } from '../python-source/definitions';
import { parsePython } from '../python-source/parser';

/**
 * What the reach index keeps of each Python file of the repository, to tell what changed since
 * the tests ran. A module the recorder probed is kept in two parts: its text outside the bodies
 * of its functions (the skeleton: imports, constants, class bodies, each `def` line with its
 * decorators and defaults, all of which run as the module is imported), and each function's body
 * (which runs only when the function is called). A change inside bodies alone changes only what
 * the tests that call those functions do; any other change may change what every test that
 * imported the module does.
 */
export interface FileState {
  hash: string;
  /** When the hash was taken: with the same time and size, the content is taken as unchanged. */
  mtimeMs: number;
  size: number;
  /** A probed module: the hash of its skeleton, and of each function's body by `qualname#n` (n: the how-manieth of that name). */
  skeleton?: string;
  bodies?: Record<string, string>;
}

const digest = (text: string | Buffer) => createHash('sha1').update(text).digest('hex');

/** The file's state now; `previous` is reused when its time and size are unchanged. */
export function fileState(root: string, rel: string, previous?: FileState): FileState | undefined {
  let info;
  try {
    info = statSync(join(root, rel));
  } catch {
    return undefined;
  }
  if (previous && previous.mtimeMs === info.mtimeMs && previous.size === info.size) return previous;
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(root, rel));
  } catch {
    return undefined;
  }
  return { hash: digest(bytes), mtimeMs: info.mtimeMs, size: info.size };
}

/** A probed module's skeleton and bodies (see FileState). */
export async function outline(text: string): Promise<Pick<FileState, 'skeleton' | 'bodies'>> {
  const tree = await parsePython(text);
  try {
    const bodies: Record<string, string> = {};
    const cuts: { start: number; end: number }[] = [];
    const seen = new Map<string, number>();
    for (const definition of listDefinitions(tree)) {
      if (definition.kind !== 'function' || insideFunction(definition.node)) continue;
      const body = definition.node.childForFieldName('body');
      if (!body) continue;
      const n = seen.get(definition.qualname) ?? 0;
      seen.set(definition.qualname, n + 1);
      bodies[`${definition.qualname}#${n}`] = digest(text.slice(body.startIndex, body.endIndex));
      cuts.push({ start: body.startIndex, end: body.endIndex });
    }
    let skeleton = '';
    let from = 0;
    for (const cut of cuts.sort((a, b) => a.start - b.start)) {
      skeleton += `${text.slice(from, cut.start)}\0`;
      from = cut.end;
    }
    return { skeleton: digest(skeleton + text.slice(from)), bodies };
  } finally {
    tree.delete();
  }
}

function insideFunction(node: Node): boolean {
  for (let up = node.parent; up; up = up.parent) if (up.type === 'function_definition') return true;
  return false;
}

/** The functions (`qualname`s) whose bodies differ between two outlines of a module; undefined when the skeleton does. */
export function changedBodies(
  before: Pick<FileState, 'skeleton' | 'bodies'>,
  after: Pick<FileState, 'skeleton' | 'bodies'>,
): Set<string> | undefined {
  if (before.skeleton !== after.skeleton) return undefined;
  const changed = new Set<string>();
  const names = new Set([...Object.keys(before.bodies ?? {}), ...Object.keys(after.bodies ?? {})]);
  for (const name of names)
    if (before.bodies?.[name] !== after.bodies?.[name]) changed.add(name.slice(0, name.lastIndexOf('#')));
  return changed;
}
