import { randomBytes } from 'node:crypto';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';

/** The demo session the end-to-end project's global setup recorded (test/setup/demo-session.ts). */
export interface RecordedDemo {
  /** The sessions folder it was recorded in; its session folder holds the log and the example it ran on. */
  sessions: string;
  id: string;
  /** What `tenet demo` said and its exit code. */
  code: number;
  stdout: string;
  stderr: string;
  /** examples/invoicing's tree hash before and after the run: the demo works on a copy. */
  exampleBefore: string;
  exampleAfter: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    demo: RecordedDemo;
  }
}

export const recordedDemo = (): RecordedDemo => inject('demo');

/** A string as it appears inside a JSON string. */
const inJson = (text: string) => JSON.stringify(text).slice(1, -1);

/**
 * A copy of the recorded demo session in the sessions folder `into`, under a new id (so that one
 * folder can hold several): its log, and the example it ran on, which the log names as its
 * repository. As if that demo had run there. The copy's id.
 */
export function copyDemoSession(into: string): string {
  const { sessions, id } = recordedDemo();
  // A new id of the same shape: the recording's time, another random part.
  const copy = `${id.slice(0, -6)}${randomBytes(3).toString('hex')}`;
  const from = join(sessions, id);
  const to = join(into, copy);
  cpSync(from, to, { recursive: true });
  const log = join(to, 'events.jsonl');
  writeFileSync(
    log,
    readFileSync(log, 'utf8')
      .replaceAll(inJson(from), inJson(to))
      .replaceAll(`"sessionId":"${id}"`, `"sessionId":"${copy}"`),
  );
  return copy;
}
