import * as z from 'zod';

/**
 * Who typed a line: the model, the developer who took the session over, or tenet itself (the pdb it
 * starts at a failing test for a takeover when no session is open).
 */
export const writerSchema = z.enum(['agent', 'human', 'tenet']);
export type Writer = z.infer<typeof writerSchema>;

/** What answers a line: the shell, or pdb (the prompt `(Pdb) ` was showing). */
export const debuggerModeSchema = z.enum(['shell', 'pdb']);

/** One exchange with the shell/pdb session: what was typed, by whom, and what came back. */
export const transcriptEntrySchema = z.object({
  who: writerSchema,
  input: z.string(),
  output: z.string(),
  /** What answered: the shell, or pdb (the prompt `(Pdb) ` was showing). */
  mode: debuggerModeSchema,
  /** What answers the next input: pdb when the command left its prompt showing (absent in sessions saved before). */
  then: debuggerModeSchema.optional(),
  startedAt: z.number(),
  durationMs: z.number(),
  interrupted: z.boolean(),
});
export type TranscriptEntry = z.infer<typeof transcriptEntrySchema>;

/** What a command's output says when the developer interrupted it with Ctrl+C in a takeover (not a timeout). */
export const DEVELOPER_INTERRUPT = '[tenet: the developer interrupted it with Ctrl-C]';
