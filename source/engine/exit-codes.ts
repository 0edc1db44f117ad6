/**
 * Every exit code of tenet: what a script can tell from how tenet ended. `tenet --help` lists them
 * (exitCodesHelp). A process ended by a signal exits as a shell reports it: 128 + the signal's number.
 */
export const EXIT = {
  pass: 0,
  fail: 1,
  badInput: 2,
  provider: 3,
  notApplied: 4,
  hangup: 129,
  interrupted: 130,
  terminated: 143,
} as const;

/** What each exit code means, as `tenet --help` says it. */
const MEANINGS: Record<keyof typeof EXIT, string> = {
  pass: 'success (run, demo, resume, fork: the task passed)',
  fail: 'the task failed or its verdict is UNVERIFIED, a spend limit stopped it, rerun found a divergence, or an unexpected error',
  badInput:
    'bad input (a missing repository or target, a bad flag or config file, no interpreter or pytest…): one message and its fix',
  provider: 'the model provider failed (after its retries, or an error retrying cannot fix)',
  notApplied: "run --apply: the run passed, but its patch was refused (the target's file changed in the checkout)",
  hangup: 'the terminal hung up (SIGHUP)',
  interrupted: 'interrupted by Ctrl+C (SIGINT); run and demo print how to resume the session',
  terminated: 'stopped by SIGTERM; run and demo print how to resume the session',
};

/** The epilog of `tenet --help`: every exit code and what it means. */
export function exitCodesHelp(): string {
  const codes = Object.entries(EXIT) as [keyof typeof EXIT, number][];
  return ['Exit codes:', ...codes.map(([name, code]) => `  ${String(code).padStart(3)}  ${MEANINGS[name]}`)].join('\n');
}
