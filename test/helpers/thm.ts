import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll } from 'vitest';
import type { EngineEvent } from '../../source/engine/events';
import type { SandboxSpec } from '../../source/engine/sandbox/create-sandbox';
import { openTask } from '../../source/engine/task/open-task';
import { runThm, THM_DEFAULTS } from '../../source/engine/thm/run-thm';
import type { ThmReport } from '../../source/engine/protocol/thm-report';

export interface ThmRun {
  report: ThmReport;
  events: EngineEvent[];
}

export interface ThmOptions {
  blank?: boolean;
  T?: number;
  testArgs?: string[];
  env?: NodeJS.ProcessEnv;
  python?: string;
  testTimeoutSec?: number;
  jobs?: number | 'auto';
  onePass?: boolean;
  worlds?: boolean;
  caller?: 'use' | 'nearest';
  sandbox?: SandboxSpec;
}

/**
 * The ways THM runs a suite, which must all give what a plain blank run gives: the default
 * (both worlds forked in lanes), one process forking a blank twin per test, and two passes.
 */
export const THM_MODES: readonly (readonly [string, ThmOptions])[] = [
  ['lanes', {}],
  ['twins', { jobs: 1 }],
  ['two passes', { onePass: false, jobs: 1 }],
];

/** A scratch repository with these files (path → text), removed when the test file ends. */
export function repositoryOf(name: string, files: Record<string, string>): string {
  const scratch = mkdtempSync(join(tmpdir(), `tenet-${name}-`));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const repo = join(scratch, name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), text);
  }
  return repo;
}

/** Runs THM through the engine API on a repository, as `tenet thm` does, and disposes the workspace. */
export async function thmOn(repo: string, target: string, options: ThmOptions = {}): Promise<ThmRun> {
  const task = await openTask({
    repo,
    target,
    blank: options.blank ?? false,
    ...(options.python ? { python: options.python } : {}),
    ...(options.env ? { env: options.env } : {}),
    ...(options.sandbox ? { sandbox: options.sandbox } : {}),
  });
  const events: EngineEvent[] = [];
  try {
    const report = await runThm(task, {
      ...THM_DEFAULTS,
      T: options.T ?? THM_DEFAULTS.T,
      testArgs: options.testArgs ?? [],
      testTimeoutSec: options.testTimeoutSec ?? THM_DEFAULTS.testTimeoutSec,
      jobs: options.jobs ?? THM_DEFAULTS.jobs,
      onePass: options.onePass ?? THM_DEFAULTS.onePass,
      ...(options.worlds !== undefined ? { worlds: options.worlds } : {}),
      ...(options.caller ? { caller: options.caller } : {}),
      emit: (event) => events.push(event),
    });
    return { report, events };
  } finally {
    await task.dispose();
  }
}

/** failing tests as nodeid → chain, for compact assertions. */
export function chains(report: ThmReport): Record<string, string[]> {
  return Object.fromEntries(report.failing.map((f) => [f.nodeid, f.chain]));
}
