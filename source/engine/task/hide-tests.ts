import type { Node } from 'web-tree-sitter';
import { findFunction } from '../python-source/function-parts';
import { parsePython } from '../python-source/parser';
import { decodeSource, encodeSource } from '../python-source/source-text';
import type { Sandbox } from '../sandbox/sandbox';
import type { Workspace } from '../workspace/workspace';

export interface HiddenTests {
  /** Node ids whose test functions were taken out of the workspace. */
  hidden: string[];
  files: string[];
  /** Puts every test file back as it was. */
  restore(): Promise<void>;
}

const qualnameOf = (nodeid: string) => nodeid.split('::').slice(1).join('.').replace(/\[.*$/, '');

const lineStart = (text: string, index: number) => text.lastIndexOf('\n', index - 1) + 1;
function nextLine(text: string, index: number): number {
  const end = text.indexOf('\n', index);
  return end === -1 ? text.length : end + 1;
}

/**
 * The text a hidden test occupies, as whole lines: its decorators and body, the comment lines
 * right above it (they describe it), and the blank lines before those, so the file closes up
 * around it and shows no gap where a test was.
 */
function span(text: string, outer: Node, node: Node): { from: number; to: number } {
  let from = lineStart(text, outer.startIndex);
  const to = nextLine(text, node.endIndex);
  const above = (isLine: (line: string) => boolean) => {
    while (from > 0) {
      const previous = lineStart(text, from - 1);
      if (!isLine(text.slice(previous, from - 1))) break;
      from = previous;
    }
  };
  above((line) => /^[ \t]*#/.test(line));
  above((line) => /^[ \t]*$/.test(line));
  return { from, to };
}

const statementsOf = (block: Node) => block.namedChildren.filter((c): c is Node => !!c && c.type !== 'comment');

/**
 * The module without the given test functions. A block left with no statement (a test class all
 * of whose tests are hidden) gets a bare `pass`, so the module still imports and collects; nothing
 * else marks where or how many tests went.
 */
export async function withoutTests(
  text: string,
  qualnames: Iterable<string>,
): Promise<{ text: string; removed: string[] }> {
  const tree = await parsePython(text);
  try {
    const found = [...qualnames].flatMap((q) => {
      const d = findFunction(tree, q);
      return d ? [{ q, d }] : [];
    });
    const removed = new Set(found.map(({ d }) => d.outer.id));
    const cuts = found.map(({ d }) => ({ ...span(text, d.outer, d.node), pass: '' }));
    // A block whose statements all go keeps one `pass`, where its first one was.
    const emptied = new Set<number>();
    for (const { d } of found) {
      const block = d.outer.parent;
      if (block?.type !== 'block' || emptied.has(block.id)) continue;
      const statements = statementsOf(block);
      if (!statements.every((s) => removed.has(s.id))) continue;
      emptied.add(block.id);
      const first = statements[0]!;
      const cut = cuts[found.findIndex((f) => f.d.outer.id === first.id)]!;
      cut.pass = `${text.slice(lineStart(text, first.startIndex), first.startIndex)}pass\n`;
    }
    let out = text;
    for (const cut of cuts.sort((a, b) => b.from - a.from))
      out = `${out.slice(0, cut.from)}${cut.pass}${out.slice(cut.to)}`;
    return { text: out, removed: found.map(({ q }) => q) };
  } finally {
    tree.delete();
  }
}

/**
 * The functions in the test's file that may be the one it runs: the one its node id names, and the
 * one its chain entered by (see thm/clustering.ts's entryFunction) where that is another in the
 * same file: the function a decorator made `test_valid_3` from, a mixin's test a class inherits.
 */
function functionsOf(nodeid: string, entries: ReadonlyMap<string, string>): string[] {
  const file = nodeid.split('::')[0]!;
  const own = `${file}::${qualnameOf(nodeid)}`;
  const entry = entries.get(nodeid);
  return entry && entry !== own && entry.startsWith(`${file}::`) ? [own, entry] : [own];
}

/**
 * Takes the failing tests the agent must not see out of the workspace until evaluation (the
 * paper withholds every test but THM's selection): each hidden test function is removed, so
 * neither reading nor searching the files tells the agent how many tests are hidden or where. A
 * test function that also serves a kept test (another parameter of it, another variant a
 * decorator made of it) stays. `entries`: the function each test's chain entered by, where THM
 * knows it. Only the workspace, a scratch copy, is written: a kill at any moment leaves the
 * checkout as it was.
 */
export async function hideTests(
  workspace: Workspace,
  sandbox: Sandbox,
  hide: readonly string[],
  keep: readonly string[],
  entries: ReadonlyMap<string, string> = new Map(),
): Promise<HiddenTests> {
  const kept = new Set(keep.flatMap((id) => functionsOf(id, entries)));
  const byFile = new Map<string, Set<string>>();
  for (const nodeid of hide) {
    for (const fn of functionsOf(nodeid, entries)) {
      const [file, qualname] = [fn.slice(0, fn.indexOf('::')), fn.slice(fn.indexOf('::') + 2)];
      if (!file || !qualname || kept.has(fn)) continue;
      byFile.set(file, (byFile.get(file) ?? new Set()).add(qualname));
    }
  }
  // A test file may be a link to another test file. Each is read before any is written (read after
  // the other was changed, it would hand on that hidden state, and bring it back in place of the
  // original at the evaluation), and written as a file of its own, never through the link.
  const before = new Map<string, Buffer>();
  for (const file of byFile.keys()) {
    try {
      before.set(file, await workspace.read(file));
    } catch {
      // gone, or a link planted out of the workspace: nothing to hide there
    }
  }
  const originals = new Map<string, Buffer>();
  const hidden: string[] = [];
  for (const [file, qualnames] of byFile) {
    const bytes = before.get(file);
    if (!bytes) continue;
    const source = decodeSource(bytes);
    const { text, removed } = await withoutTests(source.text, qualnames);
    if (!removed.length) continue;
    hidden.push(
      ...hide.filter(
        (id) =>
          id.startsWith(`${file}::`) &&
          functionsOf(id, entries).some((fn) => removed.includes(fn.slice(file.length + 2))),
      ),
    );
    originals.set(file, bytes);
    await workspace.write(file, encodeSource({ text, encoding: source.encoding }), { ownFile: true });
  }
  await sandbox.syncFiles([...originals.keys()]);
  return {
    hidden,
    files: [...originals.keys()],
    async restore() {
      for (const [file, bytes] of originals) await workspace.write(file, bytes);
      await sandbox.syncFiles([...originals.keys()]);
    },
  };
}
