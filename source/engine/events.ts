import type { ThmReport } from './thm/report';

/**
 * Everything the engine reports, as one discriminated union. The UI, the headless printer and the
 * session log all consume this stream; nothing in the engine renders anything.
 */
/**
 * THM's pytest passes: `probe` runs the whole scope; `original` re-runs the failing tests on the
 * original code (two-pass mode); `blank` re-runs, blanked, the few tests fork mode could not decide.
 */
export type ThmPhase = 'probe' | 'original' | 'blank';

export type EngineEvent =
  | { type: 'thm.start'; target: string; mode: 'stub' | 'blank'; fork: boolean; shards: number; testArgs: string[] }
  | { type: 'thm.phase'; phase: ThmPhase; tests?: number }
  | { type: 'thm.collected'; phase: ThmPhase; total: number }
  | { type: 'thm.test'; phase: ThmPhase; nodeid: string; outcome: string; reached: boolean; durationMs: number }
  | { type: 'thm.report'; report: ThmReport }
  | { type: 'warning'; message: string };

export type EventSink = (event: EngineEvent) => void;
