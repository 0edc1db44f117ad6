import type { TestRun } from '../events';
import { encodeSource, type SourceText } from '../python-source/source-text';
import { openSandbox } from '../sandbox/create-sandbox';
import type { Sandbox } from '../sandbox/sandbox';
import type { OpenTask } from '../task/open-task';
import { settleEach } from '../util/settle-each';
import { judgedLanes } from '../thm/thm-options';
import { runTestsInLanes } from '../tools/run-tests';
import { changedPaths, fingerprintTree, type TreeFingerprint } from '../workspace/fingerprint';
import { Workspace } from '../workspace/workspace';
import { fingerprintStartup, startupFolders, type StartupFingerprint } from './startup-files';

/** The evaluation's outcome: the tests' run, or why tenet could not judge (the verdict is then unverified). */
export type Evaluation = { run: TestRun } | { unverified: string };

/**
 * The checkout as the agent started, and (local sandbox) the folders Python acts on as it starts
 * with the folders they are in; or why they could not be looked at.
 */
export type CheckoutAtStart =
  | { fingerprint: TreeFingerprint; startup?: { folders: string[]; fingerprint: StartupFingerprint } }
  | { problem: string };

/** What the evaluation runs: the module the patch makes, the tests, and the scope's options. */
export interface EvaluationInput {
  task: OpenTask;
  /** The target's module as the patch leaves it (the start text where nothing was submitted). */
  moduleText: string;
  /** A plan: its other modules as its kept targets leave them (the patch covers them too). */
  otherModules?: readonly { file: string; source: SourceText }[];
  tests: string[];
  /** The developer's test files (`--add-tests`, the THM review's): theirs, not the agent's, and counted by the evaluation. */
  developerFiles?: readonly { path: string; content: string }[];
  testArgs: string[];
  testTimeoutSec: number;
  /** `--jobs`: lanes to run the tests in, each in a fresh copy of its own (see judgedLanes); default one. */
  jobs?: number | 'auto';
  /** Names the evaluation's container (a session id). */
  session: string;
  checkoutAtStart: CheckoutAtStart;
  /** Folders of tenet inside the checkout, if any (the sessions folder): never part of the check. */
  skip?: ReadonlySet<string>;
  signal?: AbortSignal;
}

const listed = (paths: string[]) =>
  `${paths.slice(0, 5).join(', ')}${paths.length > 5 ? ` and ${paths.length - 5} more` : ''}`;

/**
 * Takes the checkout's fingerprint as the agent starts, and under the local sandbox the start-up
 * folders' (a container's are its own: the evaluation's container is a fresh one). A listing that
 * fails is said, not thrown.
 */
export async function lookAtCheckout(
  task: Pick<OpenTask, 'repoDir' | 'sandbox' | 'python'>,
  skip?: ReadonlySet<string>,
): Promise<CheckoutAtStart> {
  try {
    const fingerprint = fingerprintTree(task.repoDir, skip);
    if (task.sandbox.kind !== 'local') return { fingerprint };
    const folders = await startupFolders(task.sandbox, task.python.executable);
    return { fingerprint, startup: { folders, fingerprint: fingerprintStartup(folders) } };
  } catch (error) {
    return { problem: (error as Error).message };
  }
}

/**
 * The evaluation that decides the verdict (and what `--apply` relies on): in a fresh copy of the
 * developer's checkout with only the patch applied (and the test files the developer added), in a fresh sandbox (a new container under
 * Docker), never in the workspace the agent's code ran in. No bytecode, conftest, plugin, `.pth`,
 * sitecustomize or file mode the agent left there reaches it. The checkout must be as the agent
 * found it (code that ran unconfined could write there too): a change, or a listing that cannot be
 * taken, makes the verdict unverified, as does any step that cannot be completed. With `jobs`, the
 * tests run in lanes (see runTestsInLanes), each in a fresh copy and sandbox of its own, judged
 * each; their outcomes are the one run one process would report.
 */
export async function evaluatePristine(input: EvaluationInput): Promise<Evaluation> {
  const { task } = input;
  if ('problem' in input.checkoutAtStart)
    return {
      unverified: `the checkout's files could not be listed as the agent started (${input.checkoutAtStart.problem || 'no reason given'})`,
    };
  const lanes: { copy: Workspace; sandbox?: Sandbox }[] = [];
  try {
    const count = judgedLanes(input.jobs ?? 1, input.tests.length);
    // Each lane in a fresh copy and sandbox of its own: what the judged code of one lane wrote in
    // its copy (a conftest.py by a path the tripwire cannot read) never reaches another lane's
    // collection, as it never reaches a next run.
    // Made side by side (a container each under Docker starts in seconds).
    await settleEach(
      Array.from({ length: count }, () => Workspace.create(task.repoDir, { reuse: false })),
      (copy) => lanes.push({ copy }),
    );
    // Compared once the copies are made: equal, they are of the checkout the agent started from.
    const problem = checkoutChanged(input);
    if (problem) return { unverified: problem };
    await settleEach(
      lanes.map(async (lane) => {
        await applyPatch(input, lane.copy);
        return openSandbox(task.spec, lane.copy.root, input.session, task.env, task.confinement);
      }),
      (sandbox, index) => (lanes[index]!.sandbox = sandbox),
    );
    const run = await runTestsInLanes(
      lanes.map(({ copy, sandbox }) => ({
        workspace: copy,
        sandbox: sandbox!,
        python: task.python,
        target: task.target,
        testArgs: input.testArgs,
        testTimeoutSec: input.testTimeoutSec,
        ...(input.signal ? { signal: input.signal } : {}),
      })),
      input.tests,
      'evaluate',
    );
    // The judged code reached into the harness, or forged its report: its outcomes say nothing.
    if (run.unverified) return { unverified: run.unverified };
    return { run };
  } catch (error) {
    return {
      unverified: `the evaluation could not be completed in a fresh copy of the checkout (${(error as Error).message || 'no reason given'})`,
    };
  } finally {
    for (const { copy, sandbox } of lanes) {
      await sandbox?.dispose().catch(() => undefined);
      await copy.dispose().catch(() => undefined);
    }
  }
}

/**
 * Why the checkout is not as the agent found it (code that ran unconfined could write there too),
 * or undefined: a changed file of the checkout's, or of the folders Python acts on as it starts.
 */
function checkoutChanged(input: EvaluationInput): string | undefined {
  if ('problem' in input.checkoutAtStart) return undefined;
  // The target's file (a plan's files) is written whole in the copy, and --apply refuses a patch for one that changed.
  const written = new Set([input.task.target.file, ...(input.otherModules ?? []).map((m) => m.file)]);
  const changed = changedPaths(
    input.checkoutAtStart.fingerprint,
    fingerprintTree(input.task.repoDir, input.skip),
  ).filter((rel) => !written.has(rel));
  if (changed.length)
    return `the checkout changed while the agent worked (${listed(changed)}): tenet cannot tell the repository from what the agent's code wrote there`;
  const startup = input.checkoutAtStart.startup;
  const planted = startup ? changedPaths(startup.fingerprint, fingerprintStartup(startup.folders)) : [];
  if (planted.length)
    return `what Python runs as it starts changed while the agent worked (${listed(planted)}): a .pth file, a sitecustomize or a plugin there would run in the evaluation too`;
  return undefined;
}

/** The patch in a fresh copy of the checkout: the submitted module (a plan's modules), and the test files the developer added. */
async function applyPatch(input: EvaluationInput, copy: Workspace): Promise<void> {
  const { task } = input;
  for (const file of input.developerFiles ?? []) await copy.write(file.path, file.content);
  for (const other of input.otherModules ?? []) await copy.write(other.file, encodeSource(other.source));
  await copy.write(task.target.file, encodeSource({ text: input.moduleText, encoding: task.target.source.encoding }));
  if (task.spec.kind === 'docker' && task.spec.mount) copy.lentToContainer();
}
