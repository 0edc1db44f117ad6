import * as z from 'zod';
import type { Message } from './messages';

/**
 * A shell command the model wants to run in a local sandbox: allowed (`session`: this one and every
 * later one; `auto`: no one was asked, the session already allows all), denied with a reason, or
 * the agent stopped.
 */
export type CommandDecision =
  | { run: true; session?: boolean; auto?: boolean }
  | { run: false; reason: string }
  | { stop: true };

/** The patch: into the checkout, thrown away, or kept in the saved session only. */
export type PatchChoice = 'accept' | 'reject' | 'save';

/**
 * A pilot's answer about the patch: `true`/`false` accept/reject, one of the choices, the patch
 * written to a file (and kept in the session), applying refused with the reason, or (a plan) the
 * code of these targets applied.
 */
export type PatchAnswer = boolean | PatchChoice | { saveTo: string } | { refused: string } | { targets: string[] };

/** Where a message of the developer's to the model was written: the TUI's message box, `--message-file`, `tenet fork --message`, a headless step pause (stdin). */
export const messageSourceSchema = z.enum(['tui', 'file', 'fork', 'stdin']);
export type MessageSource = z.infer<typeof messageSourceSchema>;

/** A message the developer wrote for the model; it goes with the model's next request. */
export interface DeveloperMessage {
  text: string;
  via: MessageSource;
}

/** What the next model call will send, as step mode shows it before the call. */
export interface RequestPreview {
  /** The round the request opens (1 is the first model call). */
  round: number;
  /** The messages since the model last answered: the prompts and tool results the request adds. */
  lastTurn: Message[];
}
