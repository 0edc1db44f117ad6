import { describe, expect, it } from 'vitest';
import { endedInError } from '../../source/commands/tenet-in-child';

// A fork or resume started from a replay or the browser runs in a process of its own: that screen
// comes back when it ends, unless it could not run at all, and its reason must stay on screen (issue 37).
describe('whether a session run in its own process ended in an error', () => {
  it('is an error when tenet’s last word on stderr is one', () => {
    expect(endedInError('tenet: Session abc has no event 900: its events are numbered 1 to 62.\n')).toBe(true);
    expect(
      endedInError(
        'tenet: warning: 1 line skipped\ntenet: the model provider failed: 401\n  fix: set OPENAI_API_KEY\n',
      ),
    ).toBe(true);
  });

  it('is not an error after warnings alone, or nothing said', () => {
    expect(endedInError('tenet: warning: events.jsonl line 9 is damaged; skipped\n')).toBe(false);
    expect(endedInError('')).toBe(false);
  });
});
