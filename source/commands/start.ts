import { importTui } from './import-tui';
import { resolve } from 'node:path';
import { loadConfig } from '../engine/config/config';
import { buildIndex } from '../engine/index/build-index';
import { createModel } from '../engine/model/create-model';
import { loadScript } from '../engine/model/scripted';
import type { FileIndex } from '../engine/index/types';
import { decoratorExpression, overloadSpellings } from '../engine/python/overloads';
import { DEMO } from './demo';
import { runCommand, type RunCommandOptions } from './run';

/**
 * `tenet` with no command in a terminal: the start screen over the repository (`--repo`, else the
 * current folder), then a live session on the chosen target.
 */
export async function startCommand(options: { repo?: string; sessionsDir?: string; approve?: 'ask' | 'auto' }): Promise<number> {
  const repo = resolve(options.repo ?? process.cwd());
  const isDemo = repo === resolve(DEMO.repo());
  const fallback = isDemo ? loadScript(DEMO.script()) : undefined;
  let modelLabel: string | undefined;
  let modelProblem: string | undefined;
  try {
    modelLabel = createModel(loadConfig(repo), {}, process.env, fallback).model.label;
  } catch (error) {
    modelProblem = `${(error as Error).message} ${'fix' in (error as object) ? String((error as { fix?: string }).fix ?? '') : ''}`;
  }
  // The screen comes up at once; the function list follows when the index is built (or loaded).
  const functions = async () => {
    const { index } = await buildIndex(repo, { cacheKeyDir: repo });
    return targetChoices(index.files);
  };
  const { startTui } = await importTui(() => import('../ui/launch'));
  const choice = await startTui({ repo, functions, ...(modelLabel ? { modelLabel } : {}), ...(modelProblem ? { modelProblem } : {}) });
  if (!choice) return 0;
  const run: RunCommandOptions = {
    repo,
    ...(isDemo ? { copyOfExample: true } : {}),
    target: choice.target,
    blank: choice.blank,
    testArgs: [],
    settings: {},
    model: {},
    tui: true,
    approve: options.approve ?? 'ask',
    ...(options.sessionsDir ? { sessionsDir: options.sessionsDir } : {}),
    ...(fallback ? { fallbackScript: fallback, fallbackScriptFile: DEMO.script() } : {}),
  };
  return runCommand(run);
}

/**
 * The start screen's rows: one per function a target can name, outside the tests. `@overload`
 * stubs are not targets, and a name defined twice (a property's getter and setter) is one row.
 */
export function targetChoices(files: readonly Pick<FileIndex, 'path' | 'functions' | 'imports'>[]): string[] {
  const rows = files
    .filter((f) => !/(^|\/)(tests?|testing)\/|(^|\/)test_[^/]*\.py$|_test\.py$|conftest\.py$/.test(f.path))
    .flatMap((f) => {
      const overloads = overloadSpellings(f.imports);
      return f.functions.filter((fn) => !fn.decorators.some((d) => overloads.has(decoratorExpression(d)))).map((fn) => `${f.path}::${fn.qualname}`);
    });
  return [...new Set(rows)];
}
