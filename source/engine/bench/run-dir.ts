import {
  appendFileSync,
  closeSync,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { TenetError } from '../errors';
import { processRedactor } from '../util/redact';

/**
 * A benchmark run's folder: `run.json` (what ran: the tasks file and every setting), the saved
 * sessions under `sessions/`, and `results.jsonl`, one line per finished task, appended as each
 * ends (so a killed run keeps what it finished and a restart skips it).
 */
export interface RunManifest {
  format: 'tenet-bench-run';
  version: 1;
  /** A short name for the configuration, shown in reports (default: derived from the settings). */
  label: string;
  tasksFile: string;
  createdAt: string;
  /** Every setting that changes results: strategy, model, ablations, T, selection, test stage, sandbox. */
  config: Record<string, unknown>;
  /** The tasks the run was given (all invocations together): a subset of the file with --task or --limit. */
  tasks?: string[];
}

export interface TaskResult {
  taskId: string;
  repository: string;
  target: string;
  sessionId: string;
  pass: boolean;
  stopReason: string;
  /** cacheReadTokens, cacheWriteTokens: of the input tokens, read from and written to the prompt cache (absent in runs recorded before tenet counted the cache). */
  usage: {
    inputTokens: number;
    outputTokens: number;
    modelCalls: number;
    toolCalls: number;
    cacheReadTokens?: number;
    cacheWriteTokens?: number;
  };
  costUsd: number;
  /** What the prompt cache saved on this task: its cost with every input token at the input price, less costUsd. */
  cacheSavedUsd?: number;
  wallMs: number;
  /** Set when the task could not run to an evaluation (a crash, an unusable repository). */
  error?: string;
  /** With stopReason `unverified`: why tenet could not check the verdict, in words (absent in runs recorded before tenet kept it). */
  unverified?: string;
  /** Where it ran: `local`, the Docker host, or `swarm:NODE`. */
  host?: string;
  /** On a swarm: the containers the engine started for it (more than one when it restarted a killed one). */
  attempts?: number;
  finishedAt: string;
}

const RUN_FILE = 'run.json';
const RESULTS_FILE = 'results.jsonl';

export function sessionsOf(runDir: string): string {
  return join(runDir, 'sessions');
}

export function readManifest(runDir: string): RunManifest {
  const file = join(runDir, RUN_FILE);
  if (!existsSync(file))
    throw new TenetError(
      `${runDir} is not a benchmark run (no ${RUN_FILE}).`,
      'pass a folder `tenet bench run --out` made',
    );
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as RunManifest;
  if (manifest.format !== 'tenet-bench-run') throw new TenetError(`${file} is not a tenet benchmark run manifest.`);
  return manifest;
}

export function writeManifest(runDir: string, manifest: RunManifest): void {
  mkdirSync(runDir, { recursive: true });
  writeFileSync(join(runDir, RUN_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
}

/** The finished tasks of a run; a line cut off by a kill is ignored (that task runs again). */
export function readResults(runDir: string): TaskResult[] {
  const file = join(runDir, RESULTS_FILE);
  if (!existsSync(file)) return [];
  const results = new Map<string, TaskResult>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      const result = JSON.parse(line) as TaskResult;
      // The last line for a task wins (a task re-run after an error).
      results.set(result.taskId, result);
    } catch {
      // A torn last line.
    }
  }
  return [...results.values()];
}

/** One write per result: O(1) whatever the run's size, and whole lines survive a kill. */
export function appendResult(runDir: string, result: TaskResult): void {
  // An error's message may quote what a test printed: redacted like everything tenet stores.
  appendFileSync(join(runDir, RESULTS_FILE), `${processRedactor().json(result)}\n`);
}

/** Before appending to a run's results again: a line torn by a kill gets its newline, so the next result starts a line of its own. */
export function endTornLine(runDir: string): void {
  const file = join(runDir, RESULTS_FILE);
  if (!existsSync(file)) return;
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    if (!size) return;
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    if (last[0] !== 0x0a) appendFileSync(file, '\n');
  } finally {
    closeSync(fd);
  }
}
