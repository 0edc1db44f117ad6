import type { ThmOtherFailure } from '../protocol/thm-report';
import type { Observed } from './observations';
import type { PluginTestEvent } from './plugin-lines';

/**
 * Stub mode's rule for which failing tests are the target's. The developer's code may hold other
 * stubs and other broken code, and a test that fails there fails whatever the target's body is:
 * selected, it would spend the agent's attempts on a failure no body of the target reaches;
 * hidden, it would fail every verdict. So a failing test is the target's only when the target
 * was called on its behalf: by its own code (a chain), through a fixture, module or package setup
 * it depends on (`failsThrough`: the setup called the target in an earlier test, and pytest hands
 * this test its cached error), or in a process it started. A test module whose import called the
 * target is the target's failing entry; one whose import failed without a call is broken, and
 * named with its error (`importErrors`). (Benchmark mode needs no such rule: the original code
 * passes, so what fails blank fails because of the target.)
 */
export function failsBecauseOfTarget(test: Observed): boolean {
  if (test.e === 'collecterror') return !!test.chain?.length;
  return !!test.chain?.length || !!test.failsThrough || !!test.subprocess;
}

/** A failing test that is not the target's, with where it stopped, as the report shows it. */
export function otherFailure(test: PluginTestEvent): ThmOtherFailure {
  return {
    nodeid: test.nodeid,
    outcome: test.outcome === 'failed' ? 'failed' : 'error',
    phase: test.phase,
    message: test.message,
    longrepr: test.longrepr,
    stoppedAt: test.stoppedAt ?? null,
    file: test.file,
    line: test.line,
    timedOut: test.timedOut,
    crashed: !!test.crashed,
  };
}
