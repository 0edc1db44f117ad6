import { vi } from 'vitest';
import type { TranscriptEntry } from '../../source/engine/protocol/debugger';
import type { DebuggerSession } from '../../source/engine/tools/debugger/session';

/** A pdb session that records what is typed into it, as the real one does, and answers `ran <input>`. */
export function fakeDebugger() {
  const transcript: TranscriptEntry[] = [];
  const run = vi.fn(async (input: string, who: 'agent' | 'human') => {
    transcript.push({
      who,
      input,
      output: `ran ${input}`,
      mode: 'pdb',
      startedAt: 0,
      durationMs: 0,
      interrupted: false,
    } as TranscriptEntry);
    return `ran ${input}`;
  });
  return {
    running: true,
    currentMode: 'pdb',
    root: '/w',
    idle: async () => undefined,
    transcript,
    interrupt: vi.fn(),
    run,
  } as unknown as DebuggerSession;
}
