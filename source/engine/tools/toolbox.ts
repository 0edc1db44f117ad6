import { posix } from 'node:path';
import { buildIndex, type BuildStats } from '../index/build-index';
import { pythonEnv } from '../python-source/pytest-env';
import type { OpenTask } from '../task/open-task';
import type { ToolContext } from './context';
import { DebuggerSession } from './debugger/session';
import { scheduleWarmUp } from './warm-up';

export interface ToolboxOptions {
  selectedTests: string[];
  /** pytest's arguments for THM's scope (the user's --tests): every test run uses them too. */
  testArgs?: string[];
  testTimeoutSec?: number;
  /** Per debugger command. */
  debuggerTimeoutMs?: number;
  /** Index cache file; null disables the cache (default: per repository in the user cache). */
  indexCacheFile?: string | null;
}

/**
 * `python`, `python3` and `pytest` on the debugger shell's PATH, all meaning the task's
 * interpreter, so that commands the model knows work unchanged whatever the environment.
 */
async function shellBin(task: OpenTask): Promise<string> {
  const rel = '.tenet/bin';
  const quoted = `'${task.python.path.replace(/'/g, `'\\''`)}'`;
  const scripts: Record<string, string> = {
    python: `exec ${quoted} "$@"`,
    python3: `exec ${quoted} "$@"`,
    pytest: `exec ${quoted} -m pytest "$@"`,
  };
  for (const [name, body] of Object.entries(scripts))
    await task.workspace.write(`${rel}/${name}`, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  await task.sandbox.syncFiles(Object.keys(scripts).map((name) => `${rel}/${name}`));
  return posix.join(task.sandbox.workdir, rel);
}

export interface Toolbox {
  ctx: ToolContext;
  indexStats: BuildStats;
  dispose(): void;
}

/** Everything the tools need for one task: the index of its workspace, the shell, the tests. */
export async function openToolbox(task: OpenTask, options: ToolboxOptions): Promise<Toolbox> {
  const { index, stats } = await buildIndex(task.workspace.root, {
    cacheKeyDir: task.repoDir,
    ...(options.indexCacheFile !== undefined ? { cacheFile: options.indexCacheFile } : {}),
  });
  const bin = await shellBin(task);
  let session: DebuggerSession | undefined;
  const env = {
    ...pythonEnv(task.sandbox, task.workspace.root, task.target.file),
    PATH: `${bin}:${task.sandbox.env.PATH ?? '/usr/local/bin:/usr/bin:/bin'}`,
  };
  const ctx: ToolContext = {
    workspace: task.workspace,
    sandbox: task.sandbox,
    index,
    target: task.target,
    python: task.python,
    selectedTests: options.selectedTests,
    testArgs: options.testArgs ?? [],
    testTimeoutSec: options.testTimeoutSec ?? 60,
    debugger: () => {
      if (!session) {
        session = new DebuggerSession(task.sandbox, {
          env,
          timeoutMs: options.debuggerTimeoutMs ?? 30_000,
          maxOutput: 12_000,
        });
        // Whoever types (the model, or a developer who took the shell over), files may change.
        session.onEvent((event) => {
          if (event.type === 'input' || event.type === 'entry' || event.type === 'restart') index.markStale();
        });
      }
      return session;
    },
  };
  const stopWarmUp = scheduleWarmUp(ctx);
  return {
    ctx,
    indexStats: stats,
    dispose: () => {
      stopWarmUp();
      session?.close();
    },
  };
}
