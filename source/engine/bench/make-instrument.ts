import { rm, writeFile } from 'node:fs/promises';
import { listDefinitions } from '../python-source/definitions';
import { functionParts } from '../python-source/function-parts';
import { parsePython } from '../python-source/parser';
import { encodeSource, readSource } from '../python-source/source-text';
import { instrumentFunction } from '../task/rewrite';
import type { Workspace } from '../workspace/workspace';
import type { ScannedFunction } from './make-functions';

/**
 * The reach probe, as the first statement of each candidate: it reports the candidate's id to
 * source/python/_tenet_reach_hook.py. A function-level import of a module already loaded costs a
 * dictionary lookup, and unlike a name set at the top of the module it works for calls made while
 * the module is still being imported, and in subprocesses that inherit PYTHONPATH.
 */
const reachProbe = (id: number) => `import _tenet_reach_hook; _tenet_reach_hook.hit(${id})`;

/**
 * Puts the reach probe into every candidate function of the workspace copy (never the checkout).
 * Only the candidates pay for it, where a trace function would slow down every Python call of the
 * suite. Functions are rewritten from the end of each file backwards, so the positions of the
 * ones before stay valid; a candidate no longer found (the file changed since the scan) is left
 * alone and simply never reported.
 */
export async function instrumentCandidates(
  workspace: Workspace,
  functions: readonly ScannedFunction[],
): Promise<number> {
  const byFile = new Map<string, { fn: ScannedFunction; id: number }[]>();
  functions.forEach((fn, id) => {
    const list = byFile.get(fn.file);
    if (list) list.push({ fn, id });
    else byFile.set(fn.file, [{ fn, id }]);
  });
  let instrumented = 0;
  for (const [file, candidates] of byFile) {
    const source = readSource(workspace.path(file));
    const tree = await parsePython(source.text);
    let text = source.text;
    try {
      const definitions = listDefinitions(tree).filter((d) => d.kind === 'function');
      const found = candidates
        .map(({ fn, id }) => ({
          id,
          definition: definitions.find((d) => d.qualname === fn.qualname && d.startLine === fn.startLine),
        }))
        .filter((c): c is { id: number; definition: (typeof definitions)[number] } => !!c.definition)
        .sort((a, b) => b.definition.node.startIndex - a.definition.node.startIndex);
      // Parts are taken from the original text: each rewrite only changes text after the next one's end.
      const parts = found.map((c) => ({ id: c.id, parts: functionParts(source.text, c.definition) }));
      for (const { id, parts: p } of parts) text = instrumentFunction(text, p, reachProbe(id));
      instrumented += parts.length;
    } finally {
      tree.delete();
    }
    // Replaced, not written through: a symlink in the copy may lead out of it.
    await rm(workspace.path(file), { force: true });
    await writeFile(workspace.path(file), encodeSource({ text, encoding: source.encoding }));
  }
  return instrumented;
}
