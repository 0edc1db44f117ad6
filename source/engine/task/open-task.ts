import { mkdtempSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { onShutdown } from '../lifecycle';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LOCAL, localConfinement, openSandbox, type SandboxSpec } from '../sandbox/create-sandbox';
import type { Confinement } from '../sandbox/confinement';
import { LocalSandbox } from '../sandbox/local-sandbox';
import type { Sandbox } from '../sandbox/sandbox';
import { encodeSource } from '../python-source/source-text';
import { moduleSyntaxError, pythonVerdict } from '../python-source/syntax-error';
import { repositoryFolder } from '../util/checked-paths';
import { writeOwner } from '../workspace/owner';
import { Workspace, type WorkspaceOptions } from '../workspace/workspace';
import { checkPython, choosePython, interpreterFolders, type PythonInfo } from './interpreter';
import { prepareTarget, type PreparedTarget } from './prepare-target';
import { brokenModuleError, resolveTarget, TargetInBrokenFile } from './resolve-target';

export interface TaskOptions {
  repo: string;
  target: string;
  /** Benchmark mode: blank the target's real body and keep it as ground truth. */
  blank: boolean;
  python?: string;
  keepWorkspace?: boolean;
  env?: NodeJS.ProcessEnv;
  /** Where Python runs (default: this machine). */
  sandbox?: SandboxSpec;
  /** Names the sandbox (a container's label): the session id, when there is one. */
  session?: string;
}

/** A target ready to work on: resolved in the checkout, copied into a workspace, with a checked interpreter. */
export interface OpenTask {
  repoDir: string;
  target: PreparedTarget;
  workspace: Workspace;
  sandbox: Sandbox;
  python: PythonInfo;
  /** Where Python runs, and the environment its sandboxes start from: the evaluation opens a fresh one alike. */
  spec: SandboxSpec;
  env: NodeJS.ProcessEnv;
  /** How the local sandbox confines its processes (what they are shown): the evaluation's sandbox alike. */
  confinement?: Confinement;
  dispose(): Promise<void>;
}

export async function openTask(options: TaskOptions): Promise<OpenTask> {
  const repoDir = repositoryFolder(options.repo);
  const env = options.env ?? process.env;
  const prepare = () =>
    resolveTarget(repoDir, options.target).then((resolved) =>
      prepareTarget(resolved, options.blank ? 'blank' : 'stub'),
    );
  const spec = options.sandbox ?? LOCAL;
  if (spec.kind === 'docker') return openInContainer(options, repoDir, await prepare(), spec, env);
  // Said before anything is copied: a sandbox that cannot be confined is refused, not weakened.
  // The checkout is never shown: the workspace stands for it (in benchmark mode it holds the answer).
  const confined = localConfinement(spec, env);
  const confinement = confined && { ...confined, hidden: [...confined.hidden, repoDir] };
  // The target's resolution, the copy and the interpreter check (a Python start-up) overlap: all
  // three stand before the first test. The check runs in an empty folder of its own: `python -c`
  // puts its working folder first on sys.path, so in the checkout a package named like a module
  // pytest imports (`calendar/`, `email/`) would be imported, and its bytecode written, there.
  const checkDir = mkdtempSync(join(tmpdir(), 'tenet-python-check-'));
  writeOwner(checkDir);
  // Ctrl-C during the check: the folder goes too (its process is killed by the sandbox's own hook).
  const forgetCheckDir = onShutdown(() => rmSync(checkDir, { recursive: true, force: true }));
  const passEnv = spec.kind === 'local' ? (spec.passEnv ?? []) : [];
  const probeSandbox = new LocalSandbox(checkDir, env, passEnv, confinement);
  const [targeted, copied, checked] = await Promise.allSettled([
    prepare(),
    Workspace.create(repoDir, workspaceOptions(options, env)),
    checkPython(probeSandbox, choosePython(repoDir, options.python, env), repoDir),
  ]);
  const targetedAfterAll = await brokenTargetFile(targeted, checked, probeSandbox);
  await probeSandbox.dispose();
  await rm(checkDir, { recursive: true, force: true });
  forgetCheckDir();
  if (targeted.status === 'rejected' || copied.status === 'rejected' || checked.status === 'rejected') {
    if (copied.status === 'fulfilled') await copied.value.dispose();
    // What is wrong with the target is said first, as before anything was copied.
    throw [targetedAfterAll, copied, checked].find(
      (settled): settled is PromiseRejectedResult => settled.status === 'rejected',
    )!.reason;
  }
  const target = targeted.value;
  const workspace = copied.value;
  const python = checked.value;
  await writeStart(workspace, target);
  const shown = confinement && {
    ...confinement,
    reads: [...confinement.reads, ...interpreterFolders(python, repoDir)],
  };
  const sandbox = new LocalSandbox(workspace.root, env, passEnv, shown);
  const dispose = async () => {
    await sandbox.dispose();
    await workspace.dispose();
  };
  try {
    await refuseBrokenModule(target, sandbox, python);
  } catch (error) {
    await dispose();
    throw error;
  }
  return { repoDir, target, workspace, sandbox, python, spec, env, ...(shown ? { confinement: shown } : {}), dispose };
}

/**
 * A target module that does not compile fails every test that imports it, for a reason that has
 * nothing to do with the target: say where it breaks instead of running the suite for nothing.
 */
async function refuseBrokenModule(target: PreparedTarget, sandbox: Sandbox, python: PythonInfo): Promise<void> {
  const problem = await moduleSyntaxError(target.originalText, { sandbox, python: { executable: python.path } });
  if (problem) throw brokenModuleError(target.file, problem, 'no test can import it');
}

/**
 * A target not found in a file that does not parse: the interpreter, once checked, says where
 * the file breaks (the line to fix); when it compiles the file after all, the name is what is
 * wrong. Any other outcome is left as it was.
 */
async function brokenTargetFile(
  targeted: PromiseSettledResult<PreparedTarget>,
  checked: PromiseSettledResult<PythonInfo>,
  sandbox: Sandbox,
): Promise<PromiseSettledResult<PreparedTarget>> {
  if (
    targeted.status !== 'rejected' ||
    !(targeted.reason instanceof TargetInBrokenFile) ||
    checked.status !== 'fulfilled'
  )
    return targeted;
  const broken = targeted.reason;
  const verdict = await pythonVerdict(broken.text, { sandbox, python: { executable: checked.value.path } });
  if (verdict === undefined) return targeted;
  return {
    status: 'rejected',
    reason:
      verdict === 'ok'
        ? broken.notFound
        : brokenModuleError(broken.file, verdict, `tenet cannot find ${broken.qualname} in it`),
  };
}

/**
 * The copy the last run of this repository left is brought up to date rather than copied again
 * (see workspace/parked-copy.ts); TENET_FRESH_COPY=1 copies anew every time, as does a run that
 * lends its copy to a container (`--mount`).
 */
function workspaceOptions(options: TaskOptions, env: NodeJS.ProcessEnv, mounted = false): WorkspaceOptions {
  const keep = options.keepWorkspace ?? false;
  return { keep, reuse: !keep && !mounted && env.TENET_FRESH_COPY !== '1' };
}

/** Benchmark mode: from here on the workspace holds the blank, never the ground truth. */
async function writeStart(workspace: Workspace, target: PreparedTarget): Promise<void> {
  if (target.startText !== target.originalText)
    await workspace.write(target.file, encodeSource({ text: target.startText, encoding: target.source.encoding }));
}

/**
 * The container variant: the workspace (with the blank already in it) is copied into a new
 * container, and the interpreter is the container's (`--python`, else `python3` there).
 */
async function openInContainer(
  options: TaskOptions,
  repoDir: string,
  target: PreparedTarget,
  spec: Extract<SandboxSpec, { kind: 'docker' }>,
  env: NodeJS.ProcessEnv,
): Promise<OpenTask> {
  // A mounted copy is written by the container, so it is not kept (see lentToContainer); nor is
  // the copy a local run left taken for it: it stays for the next local run.
  const workspace = await Workspace.create(repoDir, workspaceOptions(options, env, spec.mount === true));
  let sandbox: Sandbox | undefined;
  try {
    await writeStart(workspace, target);
    if (spec.mount) workspace.lentToContainer();
    sandbox = await openSandbox(spec, workspace.root, options.session ?? 'adhoc', env);
    const python = await checkPython(
      sandbox,
      options.python
        ? { executable: options.python, origin: '--python' }
        : { executable: 'python3', origin: `the image ${spec.image}` },
    );
    await refuseBrokenModule(target, sandbox, python);
    const opened = sandbox;
    const dispose = async () => {
      await opened.dispose();
      await workspace.dispose();
    };
    return { repoDir, target, workspace, sandbox, python, spec, env, dispose };
  } catch (error) {
    await sandbox?.dispose();
    await workspace.dispose();
    throw error;
  }
}
