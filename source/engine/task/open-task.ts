import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { TenetError } from '../errors';
import { LocalSandbox } from '../sandbox/local-sandbox';
import type { Sandbox } from '../sandbox/sandbox';
import { encodeSource } from '../python/source-text';
import { Workspace } from '../workspace/workspace';
import { checkPython, choosePython, type PythonInfo } from './interpreter';
import { prepareTarget, type PreparedTarget } from './prepare-target';
import { resolveTarget } from './resolve-target';

export interface TaskOptions {
  repo: string;
  target: string;
  /** Benchmark mode: blank the target's real body and keep it as ground truth. */
  blank: boolean;
  python?: string;
  keepWorkspace?: boolean;
  env?: NodeJS.ProcessEnv;
}

/** A target ready to work on: resolved in the checkout, copied into a workspace, with a checked interpreter. */
export interface OpenTask {
  repoDir: string;
  target: PreparedTarget;
  workspace: Workspace;
  sandbox: Sandbox;
  python: PythonInfo;
  dispose(): Promise<void>;
}

export async function openTask(options: TaskOptions): Promise<OpenTask> {
  const repoDir = resolve(options.repo);
  if (!existsSync(repoDir) || !statSync(repoDir).isDirectory()) {
    throw new TenetError(`Repository folder ${repoDir} does not exist.`, 'pass --repo with the root folder of a Python repository');
  }
  const env = options.env ?? process.env;
  const resolved = await resolveTarget(repoDir, options.target);
  const target = await prepareTarget(resolved, options.blank ? 'blank' : 'stub');
  // The interpreter check (a Python start-up and a pytest import) overlaps the copy. It runs in
  // the checkout's folder but only reads: `python -c` writes no bytecode.
  const probeSandbox = new LocalSandbox(repoDir, env);
  const [copied, checked] = await Promise.allSettled([
    Workspace.create(repoDir, { keep: options.keepWorkspace ?? false }),
    checkPython(probeSandbox, choosePython(repoDir, options.python, env)),
  ]);
  await probeSandbox.dispose();
  if (copied.status === 'rejected') throw copied.reason;
  const workspace = copied.value;
  if (checked.status === 'rejected') {
    await workspace.dispose();
    throw checked.reason;
  }
  if (target.startText !== target.originalText) {
    // Benchmark mode: from here on the workspace holds the blank, never the ground truth.
    await workspace.write(target.file, encodeSource({ text: target.startText, encoding: target.source.encoding }));
  }
  const sandbox = new LocalSandbox(workspace.root, env);
  const dispose = async () => {
    await sandbox.dispose();
    await workspace.dispose();
  };
  return { repoDir, target, workspace, sandbox, python: checked.value, dispose };
}
