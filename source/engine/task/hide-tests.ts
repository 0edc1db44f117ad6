import { findFunction } from '../python/function-parts';
import { parsePython } from '../python/parser';
import { decodeSource, encodeSource } from '../python/source-text';
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

/**
 * Takes the failing tests the agent must not see out of the workspace until evaluation (the
 * paper withholds every test but THM's selection): each hidden test function becomes a `pass`
 * line, so the module still imports and keeps its line count small. A test function that also
 * serves a kept test (another parameter of it) stays.
 */
export async function hideTests(workspace: Workspace, sandbox: Sandbox, hide: readonly string[], keep: readonly string[]): Promise<HiddenTests> {
  const kept = new Set(keep.map((id) => `${id.split('::')[0]}::${qualnameOf(id)}`));
  const byFile = new Map<string, Set<string>>();
  for (const nodeid of hide) {
    const [file] = nodeid.split('::');
    const qualname = qualnameOf(nodeid);
    if (!file || !qualname || kept.has(`${file}::${qualname}`)) continue;
    byFile.set(file, (byFile.get(file) ?? new Set()).add(qualname));
  }
  const originals = new Map<string, Buffer>();
  const hidden: string[] = [];
  for (const [file, qualnames] of byFile) {
    let bytes: Buffer;
    try {
      bytes = await workspace.read(file);
    } catch {
      continue;
    }
    const source = decodeSource(bytes);
    const tree = await parsePython(source.text);
    let text = source.text;
    try {
      const ranges = [...qualnames]
        .map((q) => ({ q, d: findFunction(tree, q) }))
        .filter((r): r is { q: string; d: NonNullable<ReturnType<typeof findFunction>> } => !!r.d)
        .sort((a, b) => b.d.outer.startIndex - a.d.outer.startIndex);
      for (const { d } of ranges) {
        text = `${text.slice(0, d.outer.startIndex)}pass  # a test tenet hides until evaluation${text.slice(d.node.endIndex)}`;
      }
      if (!ranges.length) continue;
      hidden.push(...hide.filter((id) => id.startsWith(`${file}::`) && ranges.some((r) => r.q === qualnameOf(id))));
    } finally {
      tree.delete();
    }
    originals.set(file, bytes);
    await workspace.write(file, encodeSource({ text, encoding: source.encoding }));
    await sandbox.syncFile(file);
  }
  return {
    hidden,
    files: [...originals.keys()],
    async restore() {
      for (const [file, bytes] of originals) {
        await workspace.write(file, bytes);
        await sandbox.syncFile(file);
      }
    },
  };
}
