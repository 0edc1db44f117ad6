import type { z } from 'zod';
import type { ToolContext } from './context';

/**
 * A tool the model can call. The name, the argument names (from the zod schema) and the text it
 * returns are the interface the model sees: keep them stable. `run` returns text; a problem the
 * model can fix (a missing file, a bad range) is text too, thrown as ToolInputError.
 */
export interface Tool<Schema extends z.ZodObject = z.ZodObject> {
  name: string;
  description: string;
  schema: Schema;
  run(args: z.infer<Schema>, ctx: ToolContext): Promise<string> | string;
  /** It can change the workspace's files (a shell, a test run, a write): the index is checked after it. */
  changesFiles?: boolean;
}

/** An error in the call itself: its message goes back to the model as the observation. */
export class ToolInputError extends Error {}

export function defineTool<Schema extends z.ZodObject>(tool: Tool<Schema>): Tool<Schema> {
  return tool;
}
