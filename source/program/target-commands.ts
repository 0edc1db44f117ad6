import { Option, type Command } from 'commander';
import { TenetError } from '../engine/errors';
import type { SandboxFlags } from '../engine/sandbox/sandbox-spec';
import {
  positiveInt,
  positiveNumber,
  repeated,
  sandboxFlags,
  secondsParser,
  withSandboxFlags,
  withThmFlags,
  onePassOf,
  type Invocation,
  type ThmOpts,
} from './flags';

/** What `thm` and `tool` both take: the target, its interpreter and sandbox, JSON output. */
interface TargetOpts<Repo extends string | undefined> extends SandboxFlags {
  repo: Repo;
  target: Repo;
  blank?: boolean;
  python?: string;
  json?: boolean;
}

/** The commands that work on one target without the agent: `thm`, `tool`, `mutate`. */
export function addTargetCommands(program: Command, { tests, setExit }: Invocation): void {
  const targetOptions = <Repo extends string | undefined>(opts: TargetOpts<Repo>) => ({
    repo: opts.repo,
    target: opts.target,
    blank: !!opts.blank,
    python: opts.python,
    json: !!opts.json,
    sandbox: sandboxFlags(opts),
    tests: tests ?? [],
  });

  const thm = program
    .command('thm')
    .description(
      "Test Harness Mechanism: run the suite against the unimplemented target, cluster the failing tests by the target's direct caller, select at most T",
    )
    .requiredOption('--repo <dir>', 'root folder of the Python repository')
    .requiredOption(
      '--target <file::qualname>',
      'the function: path/to/module.py::func or path/to/module.py::Class.method',
    )
    .option(
      '--blank',
      "benchmark mode: blank the target's real body (keeping signature, decorators, docstring) and keep it as ground truth",
    )
    .option('--json', 'print one JSON object instead of text')
    .option('--python <path>', 'Python interpreter (default: $TENET_PYTHON, the repo .venv/venv, python3)');
  withThmFlags(thm, 60)
    .addOption(
      new Option('--timeout <seconds>', 'time limit for the whole THM run')
        .argParser(secondsParser('--timeout'))
        .default(3600),
    )
    .option('--keep-workspace', 'keep the scratch copy of the repository and print where it is')
    .option('--tests <pytest-args...>', 'pytest arguments for the scope (everything after --tests)');
  withSandboxFlags(thm).action(
    async (opts: TargetOpts<string> & ThmOpts & { timeout: number; keepWorkspace?: boolean }) => {
      const { thmCommand } = await import('../commands/thm');
      setExit(
        await thmCommand({
          ...targetOptions(opts),
          T: opts.maxTests,
          testTimeout: opts.testTimeout,
          timeout: opts.timeout,
          jobs: opts.jobs,
          onePass: onePassOf(opts),
          caller: opts.caller,
          reach: opts.reach,
          keepWorkspace: !!opts.keepWorkspace,
        }),
      );
    },
  );

  const tool = program
    .command('tool')
    .argument('[name]', 'the tool to call (omit to list the tools)')
    .description("call one of the agent's tools by hand and print exactly the text the model would receive")
    .option('--repo <dir>', 'root folder of the Python repository')
    .option('--target <file::qualname>', 'the target function')
    .option('--blank', 'benchmark mode: blank the target first, as the agent would see it')
    .option('--arg <key=value>', 'a tool argument (repeatable)', repeated, [] as string[])
    .option(
      '--selected <nodeid...>',
      'the selected tests: run_tests runs them, the other failing tests are hidden as in a run',
    )
    .option('--thm', "THM's selection (what run_tests uses without --selected): the other failing tests are hidden")
    .addOption(
      new Option('-T, --max-tests <n>', 'tests THM selects (a number or "all")')
        .argParser((value: string) => (value === 'all' ? Infinity : positiveInt('-T')(value)))
        .default(3),
    )
    .option('--python <path>', 'Python interpreter')
    .option('--json', 'print the outcome as JSON (or, without a name, the tool definitions)')
    .option('--tests <pytest-args...>', 'pytest scope for THM when a selection is needed');
  withSandboxFlags(tool).action(
    async (
      name: string | undefined,
      opts: TargetOpts<string | undefined> & { arg: string[]; selected?: string[]; thm?: boolean; maxTests: number },
    ) => {
      const { toolCommand } = await import('../commands/tool');
      setExit(
        await toolCommand({
          ...targetOptions(opts),
          name,
          args: opts.arg,
          selected: opts.selected,
          thm: !!opts.thm,
          T: opts.maxTests,
        }),
      );
    },
  );

  program
    .command('mutate')
    .description(
      "how well one test file checks the target: mutation score (small changes to the function that make a test fail) and the function's line and branch coverage",
    )
    .option('--repo <dir>', 'root folder of the Python repository (required)')
    .option(
      '--target <file::qualname>',
      'the function (required); its body as the repository has it is the ground truth',
    )
    .option('--tests <file>', 'the pytest file to judge, relative to --repo (required)')
    .option('--python <path>', 'Python interpreter (default: $TENET_PYTHON, the repo .venv/venv, python3)')
    .addOption(
      new Option('--jobs <n>', 'worker processes (default: the number of cores)').argParser(positiveInt('--jobs')),
    )
    .addOption(
      new Option('--max <n>', 'at most this many mutants, spread evenly over the function')
        .argParser(positiveInt('--max'))
        .default(200),
    )
    .addOption(
      new Option(
        '--mutant-timeout <seconds>',
        'time limit per mutant (default: twice the baseline run plus 2 s)',
      ).argParser(positiveNumber('--mutant-timeout')),
    )
    .option('--json', 'print one JSON object instead of text')
    .action(async (_opts, command: Command) => {
      // main() hands everything after --tests to `tests`: here that is the test file, then any of
      // mutate's own flags written after it, parsed now.
      const [file, ...rest] = tests ?? [];
      const { operands, unknown } = command.parseOptions(rest);
      if (operands.length || unknown.length)
        command.error(`error: unexpected arguments after --tests ${file}: ${[...operands, ...unknown].join(' ')}`);
      const opts = command.opts<{
        repo?: string;
        target?: string;
        python?: string;
        jobs?: number;
        max: number;
        mutantTimeout?: number;
        json?: boolean;
      }>();
      if (!opts.repo || !opts.target || !file) {
        throw new TenetError(
          'tenet mutate needs --repo, --target and --tests.',
          'tenet mutate --repo DIR --target FILE::QUALNAME --tests FILE',
        );
      }
      const { mutateCommand } = await import('../commands/mutate');
      setExit(
        await mutateCommand({
          repo: opts.repo,
          target: opts.target,
          tests: file,
          python: opts.python,
          jobs: opts.jobs,
          max: opts.max,
          timeout: opts.mutantTimeout,
          json: !!opts.json,
        }),
      );
    });
}
