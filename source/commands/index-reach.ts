import { fromHome } from '../engine/util/cache-dir';
import { EXIT } from '../engine/exit-codes';
import { plural } from '../engine/util/plural';
import { buildReachIndex } from '../engine/thm/reach-build';
import { testFile } from '../engine/thm/node-ids';
import { printable, printableJson } from '../engine/terminal-text';

export interface IndexCommandOptions {
  repo: string;
  python?: string;
  jobs: number | 'auto';
  testTimeout: number;
  anew?: boolean;
  json?: boolean;
  tests: string[];
}

/** `tenet index --reach`: records or refreshes the reach index and says what it holds. */
export async function indexCommand(options: IndexCommandOptions): Promise<number> {
  const tty = !options.json && process.stderr.isTTY;
  const built = await buildReachIndex({
    repo: options.repo,
    testArgs: options.tests,
    jobs: options.jobs,
    testTimeoutSec: options.testTimeout,
    ...(options.python ? { python: options.python } : {}),
    ...(options.anew ? { anew: true } : {}),
    onTest: (done, total) => {
      if (tty) process.stderr.write(`\r\x1b[2Krecording the reach index: ${done}/${total || '?'} tests`);
    },
  });
  if (tty) process.stderr.write('\r\x1b[2K');
  const { index } = built;
  const tests = Object.keys(index.tests).length;
  const files = new Set(Object.keys(index.tests).map(testFile)).size;
  const summary = {
    file: built.file,
    tests,
    testFiles: files,
    functions: index.functions.length,
    ran: index.lastRun.tests,
    seconds: Math.round(index.lastRun.ms / 100) / 10,
    ...(built.refreshed !== undefined ? { refreshed: built.refreshed } : {}),
    ...(built.whole ? { recordedAnewBecause: built.whole } : {}),
    ...(built.problems.length ? { problems: built.problems } : {}),
  };
  if (options.json) {
    process.stdout.write(`${printableJson(summary)}\n`);
    return EXIT.pass;
  }
  const how =
    built.refreshed !== undefined
      ? `refreshed: ${plural(built.refreshed, 'stale test')} and the tests it did not know recorded again (${index.lastRun.tests} ran)`
      : `recorded${built.whole ? ` anew (${built.whole})` : ''}`;
  const where = fromHome(built.file);
  process.stdout.write(
    `${printable(
      `reach index: ${plural(tests, 'test')} in ${plural(files, 'file')}, ${plural(index.functions.length, 'function')} of the repository watched\n` +
        `${how} in ${summary.seconds} s\nkept in ${where}\n` +
        // A test that hung or a lane that died is recorded with what it reached until then: said, not hidden.
        built.problems.map((problem) => `pytest said: ${problem}\n`).join(''),
    )}`,
  );
  return EXIT.pass;
}
