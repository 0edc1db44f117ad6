/** Who typed a line: the model, or the developer who took the session over. */
export type Writer = 'agent' | 'human';

/** One exchange with the shell/pdb session: what was typed, by whom, and what came back. */
export interface TranscriptEntry {
  who: Writer;
  input: string;
  output: string;
  /** What answered: the shell, or pdb (the prompt `(Pdb) ` was showing). */
  mode: 'shell' | 'pdb';
  startedAt: number;
  durationMs: number;
  interrupted: boolean;
}
