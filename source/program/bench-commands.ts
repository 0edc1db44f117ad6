import { InvalidArgumentError, Option, type Command } from 'commander';
import { SANDBOX_KINDS } from '../engine/protocol/settings';
import {
  modelFlags,
  positiveInt,
  positiveNumber,
  settingChoices,
  strategyOption,
  wholeNumber,
  withAblationFlags,
  withBudgetFlags,
  withLimitFlags,
  withModelFlags,
  withThmFlags,
  type Invocation,
  type ModelOpts,
  type SettingOpts,
} from './flags';

/** `tenet bench run`'s flags, as commander parses them. */
export interface BenchRunOpts extends ModelOpts, SettingOpts {
  out: string;
  parallel: number;
  label?: string;
  repos?: string;
  task?: string[];
  limit?: number;
  retryErrors?: boolean;
  sandbox?: (typeof SANDBOX_KINDS)[number];
  image?: string;
  dockerHost?: string;
  on?: 'local' | 'swarm';
  runnerImage?: string;
  registry?: string;
  network?: string;
  attempts: number;
  memory?: string;
  cpus?: number;
  json?: boolean;
}

/**
 * `--docker-host` once: bench run no longer deals tasks round-robin over several engines (with no
 * health check or failover, one engine down turned its share of tasks into errors); a swarm does
 * placement, retries and node failure.
 */
function onlyOnce(value: string, previous: string | undefined): string {
  if (previous !== undefined) {
    throw new InvalidArgumentError(
      `given twice (${previous}, ${value}): bench run uses one engine. To spread tasks over machines, join their engines into a swarm and pass --on swarm.`,
    );
  }
  return value;
}

/** `tenet bench make`, `bench run`, `bench report`. */
export function addBenchCommands(program: Command, { tests, setExit }: Invocation): void {
  const bench = program
    .command('bench')
    .description('benchmarks: make RepoCod-style task sets from repositories, run them at scale, report the tables');
  bench
    .command('make')
    .description(
      'RepoCod-style tasks from a repository: functions with non-trivial bodies that tests reach, each blanked and checked by THM (at least --min-failing tests fail blank and pass on the original)',
    )
    .requiredOption('--repo <dir>', 'the repository (it is copied, never changed)')
    .requiredOption('--out <file>', 'the tasks file to write (JSON lines, one task each, written as THM confirms them)')
    .addOption(new Option('--count <n>', 'tasks to make').argParser(positiveInt('--count')).default(10))
    .addOption(
      new Option('--min-failing <n>', 'failing tests a task needs').argParser(positiveInt('--min-failing')).default(1),
    )
    .addOption(
      new Option('--seed <n>', 'the order candidates are tried in (same seed, same tasks)')
        .argParser(wholeNumber('--seed'))
        .default(0),
    )
    .option('--name <name>', "RepoCod's `repository` field (default: the folder's name)")
    .option('--python <path>', "Python interpreter (default: $TENET_PYTHON, the repository's .venv, python3)")
    .option(
      '--from <file>',
      "RepoCod's own rows (JSON lines or a JSON array) to make into tasks, for the checkout given by --repo, instead of picking functions",
    )
    .option(
      '--no-reach',
      "neither build nor read the reach index: a reach pass of its own, and THM over each candidate's whole scope",
    )
    .option('--json', 'print the summary as one JSON object')
    .option('--tests <pytest-args...>', 'pytest arguments for the scope (everything after --tests)')
    .action(
      async (opts: {
        repo: string;
        out: string;
        reach: boolean;
        count: number;
        minFailing: number;
        seed: number;
        name?: string;
        python?: string;
        from?: string;
        json?: boolean;
      }) => {
        const { benchMakeCommand } = await import('../commands/bench-make');
        setExit(
          await benchMakeCommand({
            repo: opts.repo,
            out: opts.out,
            tests: tests ?? [],
            count: opts.count,
            minFailing: opts.minFailing,
            seed: opts.seed,
            name: opts.name,
            python: opts.python,
            json: !!opts.json,
            from: opts.from,
            reach: opts.reach,
          }),
        );
      },
    );

  const run = bench
    .command('run')
    .argument('<tasks>', 'a tasks file (JSON lines from `tenet bench make`, or a RepoCod export)')
    .description(
      'run every task as a saved session, N at a time: here, in Docker, or on a Docker swarm (--on swarm); resumable (finished tasks are skipped)',
    )
    .requiredOption('--out <dir>', 'the run folder: run.json, results.jsonl, sessions/ (one folder per configuration)')
    .addOption(new Option('--parallel <n>', 'tasks at a time').argParser(positiveInt('--parallel')).default(1))
    .option('--label <name>', "the configuration's name in reports (default: from the settings)")
    .option(
      '--repos <dir>',
      'folder with a checkout of each repository by name (for tasks that do not record theirs, e.g. RepoCod rows)',
    )
    .option('--task <id...>', 'only these tasks (repository-repo_id)')
    .addOption(new Option('--limit <n>', 'only the first N tasks').argParser(positiveInt('--limit')))
    .option('--retry-errors', 'run again the tasks that ended in an error (not the ones that failed)');
  withModelFlags(
    run,
    'from the config, else the API key in the environment',
    'with --provider scripted: the script; {{full_function}}, {{name}}, {{target}}… are filled in per task',
  ).addOption(strategyOption('tenet, tdd or tenet+tdd'));
  withThmFlags(run);
  withAblationFlags(run);
  withLimitFlags(run);
  withBudgetFlags(run)
    .addOption(
      new Option('--sandbox <kind>', 'local (confined by bubblewrap), local-unconfined or docker').choices(
        SANDBOX_KINDS,
      ),
    )
    .option('--image <name>', 'with docker: the image')
    .option(
      '--docker-host <url>',
      'the Docker engine (with --on swarm: a manager of the swarm); default $DOCKER_HOST, else the local socket',
      onlyOnce,
    )
    .addOption(
      new Option(
        '--on <where>',
        "local (this machine), or swarm: each task as a service on the Docker engine's swarm",
      ).choices(['local', 'swarm'] as const),
    )
    .option(
      '--runner-image <name>',
      'with --on swarm: the image tasks run in (default tenet-runner:VERSION, from `tenet image build --runner`)',
    )
    .option(
      '--registry <host:port>',
      "with --on swarm: push the run's image there for the other nodes (needed past one node)",
    )
    .option('--network <name>', 'with --on swarm: an overlay network the tasks join (e.g. where a model server runs)')
    .addOption(
      new Option(
        '--attempts <n>',
        'with --on swarm: containers the engine may start for a task in all, when one dies before its result',
      )
        .argParser(positiveInt('--attempts'))
        .default(3),
    )
    .option('--memory <size>', 'with docker: memory limit per container; with --on swarm: reserved and limit per task')
    .addOption(
      new Option(
        '--cpus <n>',
        'with docker: CPU limit per container; with --on swarm: reserved and limit per task',
      ).argParser(positiveNumber('--cpus')),
    )
    .option('--json', 'print a JSON summary instead of the progress bar')
    .action(async (tasksFile: string, opts: BenchRunOpts) => {
      const { benchRunCommand } = await import('../commands/bench-run');
      setExit(
        await benchRunCommand({
          tasksFile,
          out: opts.out,
          parallel: opts.parallel,
          label: opts.label,
          reposRoot: opts.repos,
          only: opts.task,
          limit: opts.limit,
          retryErrors: !!opts.retryErrors,
          model: modelFlags(opts),
          settings: settingChoices(opts),
          sandbox: {
            sandbox: opts.sandbox ?? (opts.dockerHost && opts.on !== 'swarm' ? 'docker' : undefined),
            image: opts.image,
            dockerHost: opts.dockerHost,
            memory: opts.memory,
            cpus: opts.cpus,
          },
          ...(opts.on ? { on: opts.on } : {}),
          swarm: {
            attempts: opts.attempts,
            ...(opts.runnerImage ? { runnerImage: opts.runnerImage } : {}),
            ...(opts.registry ? { registry: opts.registry } : {}),
            ...(opts.network ? { network: opts.network } : {}),
          },
          json: !!opts.json,
        }),
      );
    });

  // Inside a runner container only (`bench run --on swarm` starts it): hidden from help.
  bench
    .command('task', { hidden: true })
    .description(
      'run one task of a swarm run inside its runner container, its events and result as JSON lines on stdout',
    )
    .requiredOption('--spec <file>', "the run's spec in the image")
    .requiredOption('--task <id>', 'the task')
    .requiredOption('--session <id>', 'the session id the coordinator records it as')
    .action(async (opts: { spec: string; task: string; session: string }) => {
      const { benchTaskCommand } = await import('../commands/bench-task');
      setExit(await benchTaskCommand(opts));
    });

  bench
    .command('report')
    .description(
      'benchmark runs side by side, as the TENET paper tabulates them: Pass@1, tokens, cost, Cost-of-Pass, API calls, wall time, overall and per repository',
    )
    .argument('<run-dirs...>', 'run folders from `tenet bench run --out`, one configuration each, in column order')
    .addOption(
      new Option('--format <format>', 'md (the paper-style tables), json, or html (a self-contained page with a chart)')
        .choices(['md', 'json', 'html'] as const)
        .default('md'),
    )
    .option('--out <file>', 'write the report to this file instead of stdout')
    .action(async (runDirs: string[], opts: { format: 'md' | 'json' | 'html'; out?: string }) => {
      const { benchReportCommand } = await import('../commands/bench-report');
      setExit(await benchReportCommand({ runDirs, format: opts.format, out: opts.out }));
    });
}
