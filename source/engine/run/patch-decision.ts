import { writeFileSync } from 'node:fs';
import type { EventOf, EventSink, RunResult } from '../events';
import type { PatchExtras, Pilot } from './pilot';
import type { CommandDecision, PatchAnswer } from '../protocol/decisions';
import { onShutdown } from '../lifecycle';

/**
 * The end of a run: the pilot decides about the patch (the developer in the TUI, `--apply`
 * headless), an accepted patch goes into the checkout unless the file changed meanwhile, and what
 * happened is recorded either way. Returns whether the patch was applied.
 */
export async function settlePatch(
  pilot: Pilot,
  result: RunResult,
  apply: (answer: PatchAnswer) => Promise<string[] | undefined>,
  emit: EventSink,
  extras: PatchExtras = {},
): Promise<boolean> {
  if (!result.patch) return false;
  const answer = await pilot.acceptPatch(result, extras);
  if (typeof answer === 'object' && 'saveTo' in answer) {
    let reason: string | undefined;
    try {
      writeFileSync(answer.saveTo, result.patch);
    } catch (error) {
      reason = `the patch could not be written to ${answer.saveTo}: ${(error as Error).message}`;
      emit({ type: 'warning', message: reason });
    }
    emit({
      type: 'patch.decision',
      decision: 'save',
      applied: false,
      ...(reason ? { reason } : { file: answer.saveTo }),
    });
    return false;
  }
  const decision =
    answer === true ? 'accept' : answer === false ? 'reject' : typeof answer === 'object' ? 'accept' : answer;
  let applied = false;
  let targets: string[] | undefined;
  let reason = typeof answer === 'object' && 'refused' in answer ? answer.refused : undefined;
  if (decision === 'accept' && !reason) {
    try {
      targets = await apply(answer);
      applied = true;
    } catch (error) {
      reason = (error as Error).message;
    }
  }
  // Kept for readers that do not know patch.decision yet (the TUI shows warnings).
  if (reason) emit({ type: 'warning', message: reason });
  emit({ type: 'patch.decision', decision, applied, ...(reason ? { reason } : {}), ...(targets ? { targets } : {}) });
  return applied;
}

/**
 * The patch decided (see settlePatch), then the result recorded. Stopped while the patch waits for
 * the developer (Ctrl+C on the result screen, a closed terminal): the run is over, so it ends with
 * its own result, the patch not applied.
 */
export async function decideThenEnd(
  pilot: Pilot,
  result: RunResult,
  apply: (answer: PatchAnswer) => Promise<string[] | undefined>,
  emit: EventSink,
  extras: PatchExtras = {},
): Promise<RunResult> {
  const stoppedUndecided = onShutdown(() => {
    emit({
      type: 'patch.decision',
      decision: 'reject',
      applied: false,
      reason: 'tenet was stopped before the patch was decided; it is kept in the session (tenet show, tenet export)',
    });
    emit(result);
  });
  try {
    result.applied = await settlePatch(pilot, result, apply, emit, extras);
  } finally {
    stoppedUndecided();
  }
  emit(result);
  return result;
}

/** A developer's answer to a shell command of the model, as the session records it. */
export function commandApproval(command: string, decision: CommandDecision): EventOf<'command.approval'> {
  if ('stop' in decision) return { type: 'command.approval', command, decision: 'stopped', by: 'human' };
  if (!decision.run)
    return {
      type: 'command.approval',
      command,
      decision: 'denied',
      by: 'human',
      ...(decision.reason ? { reason: decision.reason } : {}),
    };
  return {
    type: 'command.approval',
    command,
    decision: decision.session ? 'approved-session' : 'approved',
    by: decision.auto ? 'auto' : 'human',
  };
}
