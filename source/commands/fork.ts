import { resolve } from 'node:path';
import { TenetError } from '../engine/errors';
import type { SpendLimits } from '../engine/protocol/settings';
import { forkPoint } from '../engine/run/fork';
import { recordedChoices } from '../engine/run/run-settings';
import { foldEvents } from '../engine/session/fold';
import { loadSession } from '../engine/session/load';
import { DEMO } from './demo';
import { modelGoingOn } from './model-going-on';
import { recordedTask, relocate, startOf, type Relocation } from './resume';
import { runCommand, type RunCommandOptions } from './run';
import { root, warn } from './sessions-root';

export interface ForkCommandOptions
  extends Relocation,
    Pick<RunCommandOptions, 'json' | 'tui' | 'approve' | 'step' | 'messageFile' | 'addTests'> {
  dir?: string;
  ref: string;
  /** The parent's event to go on from (its sequence number). */
  at: number;
  provider?: string;
  model?: string;
  baseUrl?: string;
  /** `--context-window`: else the parent's recorded window, while the model stays the same. */
  contextWindow?: number;
  script?: string;
  /** THM's budget for a choice of tests the fork makes (the parent's is kept when it made it). */
  T?: number;
  /** What the live model gets first, marked as the developer's. */
  message?: string;
  /** `--max-cost`, `--max-tokens`: over the parent's limits. */
  limits?: SpendLimits;
}

/**
 * `tenet fork SESSION --at EVENT`: a new session whose history up to that event is the parent's —
 * THM, the tools and the tests run again on the same code, the model's answers are the recorded
 * ones (no API call, no cost), the developer's decisions are theirs — and which then goes on live,
 * with another model, a message, or THM's budget. The parent is not changed.
 */
export async function forkCommand(options: ForkCommandOptions): Promise<number> {
  const dir = await root(options.dir);
  const session = loadSession(dir, options.ref);
  warn(session.warnings);
  const start = startOf(session.events, session.id);
  if (options.message !== undefined && !options.message.trim())
    throw new TenetError('--message is empty.', 'give the text the live model gets first, or leave --message out');
  const point = forkPoint(session.id, session.events, options.at, options.T !== undefined ? { T: options.T } : {});
  const run = recordedTask(start);
  // The model in force at the fork's event (a resume before it may have changed it), unless another is asked for.
  const folded = foldEvents(point.history);
  const going = modelGoingOn(start, folded.settings, options);
  // A scripted parent goes on with its script (a resume may have given another) where the recorded answers end, unless another is given.
  const own = going.scripted && going.same ? folded.script : undefined;
  const script = options.script ?? own?.file;
  const { python, ...where } = relocate(run, options, session.id);
  return runCommand({
    ...run,
    ...where,
    python,
    // The shipped example stays as shipped: the fork works on a copy, as the demo does.
    ...(where.repo === resolve(DEMO.repo()) ? { copyOfExample: true } : {}),
    settings: (() => {
      const recorded = recordedChoices(start);
      return { ...recorded, limits: { ...recorded.limits, ...options.limits } };
    })(),
    model: {
      ...going.flags,
      ...(script
        ? { script, ...(!options.script ? { scriptStart: point.answers.length - (own?.from ?? 0) } : {}) }
        : {}),
    },
    // The parent's instructions, as its system prompt had them (none in sessions from before tenet read them).
    instructions: start.config.instructions ?? 'off',
    json: !!options.json,
    ...(options.tui ? { tui: true } : {}),
    ...(options.approve ? { approve: options.approve } : {}),
    ...(options.step ? { step: true } : {}),
    ...(options.messageFile ? { messageFile: options.messageFile } : {}),
    ...(options.addTests ? { addTests: options.addTests } : {}),
    sessionsDir: dir,
    fork: {
      point,
      ...(options.message ? { message: options.message } : {}),
      ...(options.T !== undefined ? { T: options.T } : {}),
    },
  });
}
