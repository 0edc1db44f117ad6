import * as z from 'zod';
import { defineTool } from './tool';

/** Ends the session from the model's side (TDD strategies); the agent loop sees the call and stops. */
export const finish = defineTool({
  name: 'finish',
  description: 'Declare the work done: the implementation is complete and the tests pass (or explain why you stop).',
  schema: z.object({ reason: z.string().min(1).describe('Why you are done, in a sentence') }),
  run({ reason }) {
    return `Finished: ${reason}`;
  },
});
