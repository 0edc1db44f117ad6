import { fileToWrite } from '../engine/util/checked-paths';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { fromHome } from '../engine/util/cache-dir';
import { plural } from '../engine/util/plural';
import { dirname } from 'node:path';
import { makeFromRows, type FromRowsSummary } from '../engine/bench/make-from-rows';
import { makeTasks, type MakeEvent, type MakeSummary } from '../engine/bench/make-tasks';
import { readTasks, type BenchTask } from '../engine/bench/task';
import type { ThmReport } from '../engine/protocol/thm-report';
import { TenetError } from '../engine/errors';
import { EXIT } from '../engine/exit-codes';
import { handleWith, type HandlersOf } from '../engine/protocol/handlers';
import { setSignalHandler, signalExitCode } from '../engine/lifecycle';
import { thmJson } from './format-thm';

export interface BenchMakeOptions {
  repo: string;
  out: string;
  tests: string[];
  count?: number;
  minFailing?: number;
  name?: string;
  python?: string;
  seed?: number;
  json?: boolean;
  /** RepoCod rows to make into tasks instead of picking functions. */
  from?: string;
  /** false (`--no-reach`): a reach pass of its own instead of the reach index (see MakeOptions.reach). */
  reach?: boolean;
}

const BENCH_MAKE_DEFAULTS = { count: 10, minFailing: 1, seed: 0 };

/**
 * `tenet bench make`: writes RepoCod-style tasks, one JSON line each, as THM confirms them (a run
 * cut short keeps the tasks it made). Progress goes to stderr, the summary to stdout (one JSON
 * object with --json). Exit code 0 when `count` tasks were made, 1 when the candidates ran out first.
 */
export async function benchMakeCommand(options: BenchMakeOptions): Promise<number> {
  const count = options.count ?? BENCH_MAKE_DEFAULTS.count;
  const minFailing = options.minFailing ?? BENCH_MAKE_DEFAULTS.minFailing;
  const seed = options.seed ?? BENCH_MAKE_DEFAULTS.seed;
  if (!Number.isInteger(count) || count < 1) throw new TenetError(`--count must be a whole number ≥ 1, not ${count}.`);
  if (!Number.isInteger(minFailing) || minFailing < 1)
    throw new TenetError(`--min-failing must be a whole number ≥ 1, not ${minFailing}.`);
  if (!Number.isInteger(seed)) throw new TenetError(`--seed must be a whole number, not ${seed}.`);
  // Read before the output is emptied: --from and --out may name the same file.
  const rows = options.from ? readTasks(options.from) : undefined;
  const out = fileToWrite(options.out, '--out', { createFolder: true });
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, '');
  const progress = progressPrinter(process.stderr);
  let written = 0;
  const write = ({ task, report }: { task: BenchTask; report: ThmReport }) => {
    appendFileSync(out, `${JSON.stringify({ ...task, tenet: { ...task.tenet!, thm: thmJson(report) } })}\n`);
    written++;
  };
  // Ctrl-C: the tasks written so far are whole lines of the file; say how many, and where.
  setSignalHandler((signal) => {
    process.stderr.write(`\ntenet: ${signal}: stopped; ${written} task${written === 1 ? '' : 's'} written to ${out}\n`);
    process.exit(signalExitCode(signal));
  });
  if (rows) {
    const made = await makeFromRows({
      repo: options.repo,
      rows,
      minFailing,
      ...(options.name ? { name: options.name } : {}),
      ...(options.python ? { python: options.python } : {}),
      emit: progress,
      onTask: write,
    });
    process.stdout.write(options.json ? `${JSON.stringify({ out, ...made })}\n` : `${formatFromRows(made, out)}\n`);
    return made.tasks > 0 && made.skipped.length === 0 ? EXIT.pass : EXIT.fail;
  }
  const summary = await makeTasks({
    repo: options.repo,
    testArgs: options.tests,
    count,
    minFailing,
    seed,
    ...(options.name ? { name: options.name } : {}),
    ...(options.python ? { python: options.python } : {}),
    ...(options.reach === false ? { reach: false } : {}),
    emit: progress,
    onTask: write,
  });
  process.stdout.write(options.json ? `${JSON.stringify({ out, ...summary })}\n` : `${formatSummary(summary, out)}\n`);
  return summary.tasks >= count ? EXIT.pass : EXIT.fail;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * One line per step on stderr; the reach pass redraws a counter in a terminal. Every step decides
 * (HandlersOf): a new one does not type-check until it is printed, or ignored.
 */
function progressPrinter(stream: NodeJS.WriteStream): (event: MakeEvent) => void {
  let lastDraw = 0;
  const lines: HandlersOf<MakeEvent> = {
    scan: (event) => {
      const excluded = Object.entries(event.excluded)
        .filter(([, n]) => n)
        .map(([why, n]) => `${n} ${why}`)
        .join(', ');
      stream.write(
        `scanned ${event.functions} functions in ${event.files} modules (${event.testFiles} test files skipped): ${event.eligible} eligible${excluded ? `; left out: ${excluded}` : ''}\n`,
      );
    },
    'reach.start': (event) => {
      stream.write(
        `${event.index ? 'reach index' : 'reach pass'}: which tests call the ${event.functions} eligible functions${event.testArgs.length ? ` (pytest ${event.testArgs.join(' ')})` : ''}\n`,
      );
    },
    'reach.index': (event) => {
      if (stream.isTTY) stream.write('\r\x1b[2K');
      const where = fromHome(event.file);
      stream.write(
        event.how === 'kept'
          ? `reach index: fresh, read as kept (no tests ran; ${where})\n`
          : event.how === 'refreshed'
            ? `reach index: refreshed, ${plural(event.ran, 'test')} recorded again (the stale ones, and those of this scope it did not know) in ${seconds(event.durationMs)} (${where})\n`
            : `reach index: ${event.whole ? `recorded anew (${event.whole})` : 'none for this scope: recorded'} in ${seconds(event.durationMs)}, kept in ${where} for the next bench make, thm and run (--no-reach: neither built nor read)\n`,
      );
    },
    'reach.progress': (event) => {
      if (stream.isTTY && Date.now() - lastDraw > 100) {
        lastDraw = Date.now();
        stream.write(`\r\x1b[2K  ${event.done}/${event.total || '?'} tests`);
      }
    },
    'reach.done': (event) => {
      if (stream.isTTY) stream.write('\r\x1b[2K');
      stream.write(
        `reach: ${event.tests} tests in ${seconds(event.durationMs)} (${event.shards ? `${event.shards} pytest process${event.shards === 1 ? '' : 'es'}` : 'the kept index'}); ` +
          `${event.reached} eligible functions reached, ${event.outside} of them at import time (left out); ${event.candidates} candidates\n`,
      );
      for (const problem of event.problems) stream.write(`  ! ${problem.split('\n')[0]}\n`);
    },
    'thm.start': (event) => {
      stream.write(
        `THM ${event.run}/${event.candidates} ${event.target} (${event.tests} reaching test${event.tests === 1 ? '' : 's'}) … `,
      );
    },
    'thm.done': (event) => {
      stream.write(
        event.taskIndex !== null
          ? `${event.failing} failing → task ${event.taskIndex} (${seconds(event.durationMs)})\n`
          : `skipped: ${event.skipped} (${seconds(event.durationMs)})\n`,
      );
    },
  };
  return (event) => handleWith(lines, event);
}

function formatSummary(summary: MakeSummary, out: string): string {
  const runs = summary.thm.durationMs;
  const mean = runs.length ? runs.reduce((a, b) => a + b, 0) / runs.length : 0;
  const lines = [
    `${summary.tasks} of ${summary.count} task${summary.count === 1 ? '' : 's'} from ${summary.repository} written to ${out}`,
    `  functions: ${summary.scan.functions} scanned, ${summary.scan.eligible} eligible, ${summary.reach.reached} reached by tests, ${summary.candidates} candidates (seed ${summary.seed})`,
    `  reach ${summary.reach.index ? `index (${summary.reach.index.how})` : 'pass'}: ${summary.reach.tests} tests, ${seconds(summary.reach.durationMs)}`,
    `  THM runs: ${summary.thm.runs} (${summary.thm.kept} kept, ${summary.thm.skipped} skipped), ${runs.length ? `mean ${seconds(mean)}, longest ${seconds(Math.max(...runs))}` : 'none'}`,
    `  total: ${seconds(summary.durationMs)}`,
  ];
  if (summary.tasks < summary.count)
    lines.push(`  ! only ${summary.tasks}: the candidates ran out (widen --tests, lower --min-failing)`);
  return lines.join('\n');
}

function formatFromRows(summary: FromRowsSummary, out: string): string {
  const mine = summary.rows - summary.otherRepositories;
  const lines = [
    `${summary.tasks} of ${mine} row${mine === 1 ? '' : 's'} of ${summary.repository} made into tasks, written to ${out} (${seconds(summary.durationMs)})`,
  ];
  if (summary.otherRepositories)
    lines.push(
      `  ${summary.otherRepositories} row${summary.otherRepositories === 1 ? '' : 's'} of other repositories passed over (--name says which repository the checkout is)`,
    );
  for (const { task, why } of summary.skipped) lines.push(`  ! ${task}: ${why}`);
  return lines.join('\n');
}
