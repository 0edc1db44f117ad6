import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { Catalog } from '../../source/engine/session/catalog';
import { foldEvents } from '../../source/engine/session/fold';
import { loadSession } from '../../source/engine/session/load';
import { finished, runCli, startCli, waitFor } from './cli';
import { ROOT } from './fixtures';

/**
 * Events a log holds that come the same in every run of the demo: all but the debugger's output,
 * whose chunks depend on how the shell's output arrives.
 */
export function steadyEvents(text: string): number {
  return text.split('\n').filter((line) => {
    try {
      return (JSON.parse(line) as { type: string }).type !== 'debugger.output';
    } catch {
      return false; // the line being written
    }
  }).length;
}
const steadyIn = (file: string) => (existsSync(file) ? steadyEvents(readFileSync(file, 'utf8')) : 0);

/** Where the demo's evaluation starts, in steady events: after it come the evaluation's test run and the result, which a kill must beat. */
const DEMO_LINES = readFileSync(join(ROOT, 'sessions', 'demo', 'events.jsonl'), 'utf8').split('\n');
export const EVALUATION = steadyEvents(
  DEMO_LINES.slice(0, DEMO_LINES.findIndex((line) => line.includes('"phase":"evaluate"')) + 1).join('\n'),
);

/** A small deterministic generator (mulberry32): the same "random" kill points on every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Kill points, as a number of steady events logged, from THM to the start of the evaluation of
// the demo session (its evaluation's pytest run leaves time for the kill to land): fixed ones,
// spread over that range, and a few more drawn from a seeded generator.
const random = seeded(20260501);
/** The fixed points, spread from THM to the evaluation. */
export const SPREAD_POINTS = [0, 0.1, 0.2, 0.35, 0.5, 0.65, 0.8, 1].map(
  (at) => [3 + Math.round(at * (EVALUATION - 3)), ''] as [number, string],
);
/** The points drawn from the seeded generator. */
export const DRAWN_POINTS = Array.from(
  { length: 4 },
  () => [3 + Math.floor(random() * (EVALUATION - 2)), ' (seeded draw)'] as [number, string],
);

/**
 * Starts the demo in the sessions folder `dir` and kills it (SIGKILL) once its log has `point`
 * steady events; the session's id, and whether the run had ended first.
 */
export async function killDemoAt(
  dir: string,
  env: NodeJS.ProcessEnv,
  point: number,
): Promise<{ id: string; endedFirst: boolean }> {
  const before = new Set(existsSync(dir) ? new Catalog(dir).list().map((s) => s.id) : []);
  const child = startCli(['demo'], { env });
  const ended = finished(child);
  let exited = false;
  void ended.then(() => (exited = true));
  let id: string | undefined;
  await waitFor(
    () => {
      id ??= new Catalog(dir).list().find((s) => !before.has(s.id))?.id;
      return exited || (!!id && steadyIn(join(dir, id, 'events.jsonl')) >= point);
    },
    60_000,
    `${point} events`,
  );
  const endedFirst = exited;
  child.kill('SIGKILL');
  await ended;
  return { id: id!, endedFirst };
}

/**
 * For each point, a test: the demo killed there leaves a loadable, interrupted session, and
 * `tenet resume` finishes it (PASS).
 */
export function killedAndResumed(dir: string, env: NodeJS.ProcessEnv, points: [number, string][]): void {
  for (const [point, drawn] of points) {
    it(`killed after ${point} events${drawn}`, async () => {
      const { id, endedFirst } = await killDemoAt(dir, env, point);
      // The kill landed while the run went on: a point it never reached would test nothing.
      expect(endedFirst).toBe(false);
      const session = loadSession(dir, id);
      const state = foldEvents(session.events);
      expect(session.events.length).toBeGreaterThanOrEqual(point - 1);
      expect(state.result).toBeUndefined();
      expect(new Catalog(dir).list().find((s) => s.id === id)?.status).toBe('interrupted');
      const resumed = await runCli(['resume', id], { env });
      expect(resumed.stderr).toBe('');
      expect(resumed.code).toBe(0);
      expect(resumed.stdout).toContain('PASS · selected 3/3 · hidden 9/9');
      const after = foldEvents(loadSession(dir, id).events);
      expect(after.result?.pass).toBe(true);
      expect(new Catalog(dir).list().find((s) => s.id === id)?.status).toBe('passed');
    }, 120_000);
  }
}
