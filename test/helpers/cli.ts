import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import type { EngineEvent } from '../../source/engine/events';
import { CLI } from './fixtures';

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI (dist/tenet.js) like a user would. */
export function runCli(args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<CliResult> {
  const child = startCli(args, options);
  return finished(child);
}

/** Sessions of CLI runs in tests go here, never into the repository's sessions/. */
const TEST_SESSIONS = mkdtempSync(join(tmpdir(), 'tenet-test-sessions-'));
// Gone with the test file that made it (each file imports this module afresh).
afterAll(() => rmSync(TEST_SESSIONS, { recursive: true, force: true }));

/** `stdin: 'pipe'` gives the test the child's stdin (headless step mode reads its answers there). */
export function startCli(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; stdin?: 'ignore' | 'pipe' } = {},
): ChildProcess & { output: { stdout: string; stderr: string } } {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, TENET_SESSIONS_DIR: TEST_SESSIONS, ...options.env },
    cwd: options.cwd,
    stdio: [options.stdin ?? 'ignore', 'pipe', 'pipe'],
  }) as ChildProcess & { output: { stdout: string; stderr: string } };
  child.output = { stdout: '', stderr: '' };
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (child.output.stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (child.output.stderr += d));
  return child;
}

export function finished(child: ReturnType<typeof startCli>): Promise<CliResult> {
  return new Promise((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal, ...child.output }));
  });
}

/** Processes whose working directory is inside `dir` (Linux /proc). */
export function processesIn(dir: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readlinkSync(`/proc/${entry}/cwd`).startsWith(dir)) found.push(Number(entry));
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

/** Polls `condition` every `everyMs` (a moment that passes quickly needs a short one). */
export async function waitFor(
  condition: () => boolean,
  timeoutMs = 30_000,
  what = 'condition',
  everyMs = 100,
): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** The events a `--json` run printed, one JSON object a line (other lines left out). */
export const jsonEvents = (text: string): EngineEvent[] =>
  text
    .trim()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as EngineEvent);
