import { Option, type Command } from 'commander';
import { TenetError } from '../engine/errors';
import { jobsValue, secondsParser, type Invocation } from './flags';
import type { IndexCommandOptions } from '../commands/index-reach';

/** `tenet index --reach`: the reach index THM uses to run only the tests that can fail. */
export function addIndexCommands(program: Command, { tests, setExit }: Invocation): void {
  program
    .command('index')
    .description(
      'record which tests call which functions (--reach), so that THM runs only the tests that can fail; refreshes a kept index',
    )
    .option('--reach', 'the reach index (the only index this command builds)')
    .requiredOption('--repo <dir>', 'root folder of the Python repository')
    .option('--python <path>', 'Python interpreter (default: $TENET_PYTHON, the repo .venv/venv, python3)')
    .addOption(
      new Option('--jobs <n>', 'lanes to run the scope in ("auto": one per core, at most 4)')
        .argParser((value: string) => jobsValue(value))
        .default('auto'),
    )
    .addOption(
      new Option('--test-timeout <seconds>', 'time limit per test')
        .argParser(secondsParser('--test-timeout'))
        .default(60),
    )
    .option('--anew', 'record every test again instead of refreshing the stale ones')
    .option('--json', 'print one JSON object instead of text')
    .option('--tests <pytest-args...>', 'pytest arguments for the scope (everything after --tests)')
    .action(async (opts: Omit<IndexCommandOptions, 'tests'> & { reach?: boolean }) => {
      if (!opts.reach)
        throw new TenetError('tenet index builds the reach index only.', 'tenet index --reach --repo DIR');
      const { indexCommand } = await import('../commands/index-reach');
      setExit(await indexCommand({ ...opts, tests: tests ?? [] }));
    });
}
