import { join } from 'node:path';
import { submittedModule } from '../eval/submitted-module';
import { encodeSource, readSource, type SourceText } from '../python-source/source-text';
import type { Sandbox } from '../sandbox/sandbox';
import { locateTarget, type PlanPlace } from '../task/plan-targets';
import type { Workspace } from '../workspace/workspace';

/** A plan's modules by file: as the checkout has them, or as some of its targets' code leaves them. */
export type Modules = Map<string, SourceText>;

/** A target's code: the accepted submissions of its run, in order, each placed as the run placed it. */
export interface TargetCode {
  place: PlanPlace;
  submissions: readonly string[];
}

/** The plan's files as the checkout has them. */
export function readOriginals(repoDir: string, places: readonly PlanPlace[]): Modules {
  return new Map([...new Set(places.map((p) => p.file))].map((file) => [file, readSource(join(repoDir, file))]));
}

/**
 * The modules with the code of these targets, in the order given: each target's submissions put in
 * place of it, in order, as its run did (imports an earlier submission added stay). The same texts
 * as the workspace had, live or rebuilt by a resume, since each step is the same.
 */
export async function composeModules(originals: Modules, targets: readonly TargetCode[]): Promise<Modules> {
  const texts: Modules = new Map(originals);
  for (const { place, submissions } of targets) {
    const module = texts.get(place.file)!;
    const { startLine } = await locateTarget(module.text, place);
    const text = await submittedModule(module.text, { qualname: place.qualname, startLine }, submissions);
    if (text !== undefined) texts.set(place.file, { text, encoding: module.encoding });
  }
  return texts;
}

/** Writes the modules into the workspace (and the sandbox's copy of it). */
export async function writeModules(workspace: Workspace, sandbox: Sandbox, modules: Modules): Promise<void> {
  for (const [file, source] of modules) {
    await workspace.write(file, encodeSource(source));
    await sandbox.syncFile(file);
  }
}

/** Where each target starts in these modules: the judge counts their definitions as submitted code. */
export async function placesIn(
  modules: Modules,
  places: readonly PlanPlace[],
): Promise<{ file: string; qualname: string; startLine: number }[]> {
  const found = [];
  for (const place of places) {
    const { startLine } = await locateTarget(modules.get(place.file)!.text, place);
    found.push({ file: place.file, qualname: place.qualname, startLine });
  }
  return found;
}
