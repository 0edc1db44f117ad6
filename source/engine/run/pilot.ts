import type { RunResult } from '../events';
import type { ThmReport } from '../thm/report';

/**
 * Every place a human may decide is one awaited call. The TUI answers with keys, headless runs
 * with defaults and flags, replays with what was recorded.
 */
export interface Pilot {
  /** THM's proposal; the tests the session validates against (the proposal, or an override). */
  approveTests(report: ThmReport): Promise<{ chosen: string[]; by: 'auto' | 'human' }>;
  /** Awaited before each model call; resolves with a note for the model after a takeover, if any. */
  beforeModelCall?(): Promise<string | undefined>;
  /** The finished run: apply the patch to the checkout or not. */
  acceptPatch(result: RunResult): Promise<boolean>;
}

/** No human: THM's proposal stands; the patch is applied only when asked for (`--apply`). */
export function headlessPilot(apply: boolean): Pilot {
  return {
    approveTests: async (report) => ({ chosen: report.selected, by: 'auto' }),
    acceptPatch: async () => apply,
  };
}
