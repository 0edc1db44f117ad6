import { describe, expect, it } from 'vitest';
import { messageFileOf } from '../../source/commands/run';

// Issue 34, item 7: `--message-file` in a folder that does not exist was taken silently, and no
// message could ever come.
describe('--message-file', () => {
  it('in a folder that does not exist is refused, saying which folder', () => {
    expect(() => messageFileOf({ messageFile: '/nonexistent-tenet-folder/messages.txt' })).toThrow(
      '--message-file /nonexistent-tenet-folder/messages.txt: the folder /nonexistent-tenet-folder does not exist.',
    );
  });

  it('a file that does not exist yet, in a folder that does, is taken', () => {
    expect(messageFileOf({ messageFile: '/tmp/tenet-not-yet-written.txt' })?.path).toBe(
      '/tmp/tenet-not-yet-written.txt',
    );
  });
});
