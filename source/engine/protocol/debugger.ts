/**
 * Who typed a line: the model, the developer who took the session over, or tenet itself (the pdb it
 * starts at a failing test for a takeover when no session is open).
 */
export type Writer = 'agent' | 'human' | 'tenet';

/** One exchange with the shell/pdb session: what was typed, by whom, and what came back. */
export interface TranscriptEntry {
  who: Writer;
  input: string;
  output: string;
  /** What answered: the shell, or pdb (the prompt `(Pdb) ` was showing). */
  mode: 'shell' | 'pdb';
  /** What answers the next input: pdb when the command left its prompt showing (absent in sessions saved before). */
  then?: 'shell' | 'pdb';
  startedAt: number;
  durationMs: number;
  interrupted: boolean;
}

/** What a command's output says when the developer interrupted it with Ctrl+C in a takeover (not a timeout). */
export const DEVELOPER_INTERRUPT = '[tenet: the developer interrupted it with Ctrl-C]';
