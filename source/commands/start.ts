import { importTui } from './import-tui';
import { resolve } from 'node:path';
import type { FileIndex } from '../engine/index/types';
import { decoratorExpression, overloadSpellings } from '../engine/python-source/overloads';
import { repositoryFolder } from '../engine/util/checked-paths';
import { instructionsWords, readProjectInstructions } from '../engine/task/project-instructions';
import type { ModelFlags } from '../engine/model/create-model';
import type { Script } from '../engine/model/scripted';
import { describeSandbox, sandboxSpec, sandboxWords, type SandboxFlags } from '../engine/sandbox/sandbox-spec';
import type { ModelLine, TargetCheck } from '../ui/screens/start-screen';
import type { StartReachRefresh } from '../ui/screens/start-reach';
import type { BackgroundRefresh } from '../engine/thm/reach-refresh';
import { DEMO, demoCommand } from './demo';
import { runCommand, type RunCommandOptions } from './run';
import { EXIT } from '../engine/exit-codes';

// The screen is drawn first; what it shows next (the model, the functions, a target's check) is
// loaded after: the config and provider SDKs, the index and its parser (see perf/tui.ts).

/** What bare `tenet` takes: the repository, and the model and sandbox flags of `tenet run`. */
export interface StartOptions {
  repo?: string;
  sessionsDir?: string;
  approve?: 'ask' | 'auto';
  model?: ModelFlags;
  sandbox?: SandboxFlags;
  /** pytest arguments for the session's scope (`tenet --tests …`); none: the repository's configuration. */
  testArgs?: string[];
  /** `tenet --step`: the session starts in step mode (as `tenet run --step`). */
  step?: boolean;
}

/**
 * `tenet` with no command in a terminal: the start screen over the repository (`--repo`, else the
 * current folder), then a live session on the chosen target — or, without a model, the demo.
 */
export async function startCommand(options: StartOptions): Promise<number> {
  // A folder that is not there is an error at once, as in every command, not an empty list.
  const repo = repositoryFolder(options.repo ?? process.cwd());
  const isDemo = repo === resolve(DEMO.repo());
  const fallback = isDemo ? (await import('../engine/model/scripted')).loadScript(DEMO.script()) : undefined;
  const flags = options.model ?? {};
  // Which model answers, or why none can, and where its Python will run: said on the screen once
  // the config and providers are loaded.
  const model = () => startModelLine(repo, flags, options.sandbox ?? {}, process.env, fallback);
  // The screen comes up at once; the function list follows when the index is built (or loaded).
  const functions = async () => {
    const { buildIndex } = await import('../engine/index/build-index');
    const { index } = await buildIndex(repo, { cacheKeyDir: repo });
    return targetChoices(index.files);
  };
  const { startTui } = await importTui(() => import('../ui/start-tui'));
  const testArgs = options.testArgs ?? [];
  const instructions = readProjectInstructions(repo);
  const refresher = reachRefresher(repo, testArgs, options.sandbox ?? {});
  let choice;
  try {
    choice = await startTui({
      repo,
      functions,
      model,
      testArgs,
      checkTarget: (target) => checkTarget(repo, target),
      reachCounts: async () => (await import('../engine/thm/reach-use')).reachCounts(repo, testArgs),
      refreshReach: refresher.start,
      ...(instructions ? { instructions: instructionsWords(instructions) } : {}),
    });
  } finally {
    // Before a session starts, or tenet exits: its pytest processes gone, the index whole (old or new).
    await refresher.stop();
  }
  if (!choice) return EXIT.pass;
  if ('demo' in choice)
    return demoCommand({
      json: false,
      tui: true,
      ...(options.step ? { step: true } : {}),
      ...(options.sessionsDir ? { sessionsDir: options.sessionsDir } : {}),
      ...(options.approve ? { approve: options.approve } : {}),
      ...(options.sandbox ? { sandbox: options.sandbox } : {}),
    });
  const run: RunCommandOptions = {
    repo,
    ...(isDemo ? { copyOfExample: true } : {}),
    target: choice.target,
    blank: choice.blank,
    testArgs,
    settings: {},
    model: flags,
    ...(options.sandbox ? { sandbox: options.sandbox } : {}),
    tui: true,
    ...(options.step ? { step: true } : {}),
    approve: options.approve ?? 'ask',
    ...(options.sessionsDir ? { sessionsDir: options.sessionsDir } : {}),
    ...(fallback ? { fallbackScript: fallback, fallbackScriptFile: DEMO.script() } : {}),
  };
  return runCommand(run);
}

/**
 * The start screen's refresh of a stale reach index (see refreshInBackground): started after the
 * first frame, stopped and waited for once the screen closes. Not under the Docker sandbox: the
 * index is recorded in the local one, and a developer who chose Docker did not ask for the tests
 * to run on this machine.
 */
function reachRefresher(repo: string, testArgs: readonly string[], sandboxFlags: SandboxFlags) {
  let stopped = false;
  let running: Promise<BackgroundRefresh | undefined> | undefined;
  const start: StartReachRefresh = (onStatus) => {
    running ??= (async () => {
      const [{ loadConfig }, { refreshInBackground }] = await Promise.all([
        import('../engine/config/config'),
        import('../engine/thm/reach-refresh'),
      ]);
      if (sandboxSpec(sandboxFlags, await loadConfig(repo)).kind !== 'local' || stopped) return undefined;
      return refreshInBackground({ repo, testArgs, onStatus });
    })().catch(() => undefined); // a config that does not load is said on the model's line
  };
  return {
    start,
    stop: async () => {
      stopped = true;
      await (await running)?.stop();
    },
  };
}

/**
 * The start screen's model line: which model answers (and, when it is the example's scripted demo
 * because none is configured, that this is why, and how to configure one), or why none can.
 */
export async function startModelLine(
  repo: string,
  flags: ModelFlags,
  sandboxFlags: SandboxFlags,
  env: NodeJS.ProcessEnv,
  fallback?: Script,
): Promise<ModelLine> {
  const [{ loadConfig }, { createModel }] = await Promise.all([
    import('../engine/config/config'),
    import('../engine/model/create-model'),
  ]);
  let sandbox: string | undefined;
  const howTo = (error: unknown) => {
    const fix = (error as { fix?: string }).fix;
    return `${fix ? `To use a model, ${fix}.` : ''} (A config file with provider and model works too; see docs/models.md.)`;
  };
  try {
    const config = await loadConfig(repo);
    sandbox = sandboxWords(describeSandbox(sandboxSpec(sandboxFlags, config)));
    const chosen = createModel(config, flags, env, fallback);
    if (!fallback || chosen.settings.provider !== 'scripted' || flags.script || flags.provider) {
      return { label: chosen.model.label, sandbox };
    }
    // The demo's script answers only because nothing else is configured: said, with what to set.
    let fix = '';
    try {
      createModel(config, flags, env);
    } catch (error) {
      fix = howTo(error);
    }
    return {
      label: chosen.model.label,
      sandbox,
      note: `No model is configured, so the example's scripted demo answers (no API call). ${fix}`.trim(),
    };
  } catch (error) {
    return { problem: `${(error as Error).message} ${howTo(error)}`, ...(sandbox ? { sandbox } : {}) };
  }
}

/** Whether the target's body is a stub or implemented, or why it cannot be a target, before a session starts. */
export async function checkTarget(repo: string, target: string): Promise<TargetCheck> {
  try {
    const [{ resolveTarget }, { targetIsStub }] = await Promise.all([
      import('../engine/task/resolve-target'),
      import('../engine/eval/submitted-module'),
    ]);
    const found = await resolveTarget(repo, target);
    return { body: (await targetIsStub(found.source.text, found)) ? 'stub' : 'implemented' };
  } catch (error) {
    return { problem: (error as Error).message.split('\n')[0]! };
  }
}

/**
 * The start screen's rows: one per function a target can name, outside the tests. `@overload`
 * stubs are not targets, and a name defined twice (a property's getter and setter) is one row.
 */
export function targetChoices(files: readonly Pick<FileIndex, 'path' | 'functions' | 'imports'>[]): string[] {
  return files
    .filter((f) => !/(^|\/)(tests?|testing)\/|(^|\/)test_[^/]*\.py$|_test\.py$|conftest\.py$/.test(f.path))
    .flatMap((f) => {
      const overloads = overloadSpellings(f.imports);
      const real = f.functions.filter((fn) => !fn.decorators.some((d) => overloads.has(decoratorExpression(d))));
      const count = new Map<string, number>();
      for (const fn of real) count.set(fn.qualname, (count.get(fn.qualname) ?? 0) + 1);
      // A name defined twice (a property's getter and setter) is a row per definition, told apart by its line.
      return real.map((fn) => `${f.path}::${fn.qualname}${count.get(fn.qualname)! > 1 ? `@${fn.defLine}` : ''}`);
    });
}
