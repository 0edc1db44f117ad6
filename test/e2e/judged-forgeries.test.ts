import { describe, expect, it } from 'vitest';
import { forgeries, runSubmitting, TARGET_START } from '../helpers/judged-forgeries';
import { snapshot } from '../helpers/snapshot';

/**
 * Forgeries from inside the judged process (issue 43), under tenet's judge: each run is
 * UNVERIFIED, names the event and the line, and `--apply` writes nothing (the first half of the list; the
 * same attacks work without the judge: judged-forgeries-unjudged.test.ts).
 */
const HALF = Math.ceil(forgeries.length / 2);

describe('the judge: each forgery makes the verdict UNVERIFIED and nothing is applied', () => {
  it.each(forgeries.slice(0, HALF).map((f) => [f.name, f] as const))(
    '%s',
    async (_name, forgery) => {
      const { repo, before, events, stderr } = await runSubmitting(forgery.body, ['--apply']);
      const verdict = events.at(-1);
      expect(verdict, stderr.slice(-2000)).toMatchObject({
        type: 'result',
        pass: false,
        stopReason: 'unverified',
        applied: false,
      });
      const prefix = 'the submission reached into the test harness: ';
      const reason = verdict.message.startsWith(prefix) ? verdict.message.slice(prefix.length) : verdict.message;
      // tenet keeps the stub's docstring as the body's first line: the module's line is one further down.
      const line = forgery.at ? TARGET_START + 1 + forgery.body.split('\n').indexOf(forgery.at) : 0;
      expect(reason).toMatch(new RegExp(forgery.judged.source.replace('LINE', String(line))));
      expect(snapshot(repo)).toEqual(before);
    },
    240_000,
  );
});
