import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { TenetError } from '../errors';
import { LocalSandbox } from '../sandbox/local-sandbox';
import type { Sandbox } from '../sandbox/sandbox';
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
  const resolved = await resolveTarget(repoDir, options.target);
  const target = await prepareTarget(resolved, options.blank ? 'blank' : 'stub');
  const workspace = await Workspace.create(repoDir, { keep: options.keepWorkspace ?? false });
  const sandbox = new LocalSandbox(workspace.root, options.env ?? process.env);
  const dispose = async () => {
    await sandbox.dispose();
    await workspace.dispose();
  };
  try {
    const python = await checkPython(sandbox, choosePython(repoDir, options.python, options.env ?? process.env));
    return { repoDir, target, workspace, sandbox, python, dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}
