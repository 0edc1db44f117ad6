import { Command, InvalidArgumentError, Option } from 'commander';
import { describeError, EXIT, fileProblem, TenetError } from './engine/errors';
import { SESSION_STATUSES } from './engine/session/status';
import { ProviderError } from './engine/model/types';

/** Everything after `--tests` belongs to pytest, in every command that takes it. */
export function splitTestArgs(argv: string[]): { own: string[]; tests: string[] | undefined } {
  const at = argv.indexOf('--tests');
  if (at === -1) return { own: argv, tests: undefined };
  return { own: argv.slice(0, at), tests: argv.slice(at + 1) };
}

function positiveInt(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`${name} must be a whole number ≥ 1.`);
    return n;
  };
}

function positiveNumber(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError(`${name} must be a number > 0.`);
    return n;
  };
}

function wholeNumber(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError(`${name} must be a whole number ≥ 0.`);
    return n;
  };
}

function jobsValue(value: string): number | 'auto' {
  return value === 'auto' ? 'auto' : positiveInt('--jobs')(value);
}

function budget(value: string): number {
  return value === 'all' ? Infinity : positiveInt('-T')(value);
}

/** Where Python runs: the flags `run`, `thm`, `tool` and `demo` share. */
function withSandboxOptions(command: Command): Command {
  return command
    .addOption(new Option('--sandbox <kind>', 'where Python runs: local or docker (default: the config, else $TENET_SANDBOX, else local)').choices(['local', 'docker']))
    .option('--image <name>', 'with docker: an image with python3 and pytest (default: tenet-python:bookworm, see `tenet image build`)')
    .option('--docker-host <url>', 'with docker: the engine (default: $DOCKER_HOST, else the local socket)')
    .option('--mount', 'with docker: bind-mount the workspace instead of copying it in (the engine must run on this machine)')
    .option('--memory <size>', 'with docker: memory limit of the container, e.g. 2g (default 4g)')
    .addOption(new Option('--cpus <n>', 'with docker: CPU limit (default: all cores)').argParser(positiveNumber('--cpus')))
    .addOption(new Option('--pids <n>', 'with docker: process limit (default 1024)').argParser(positiveInt('--pids')))
    .option('--network', 'with docker: give the container a network (off by default)');
}

function sandboxFlags(opts: Record<string, unknown>) {
  return {
    sandbox: opts.sandbox as string | undefined,
    image: opts.image as string | undefined,
    dockerHost: opts.dockerHost as string | undefined,
    mount: opts.mount as boolean | undefined,
    memory: opts.memory as string | undefined,
    cpus: opts.cpus as number | undefined,
    pids: opts.pids as number | undefined,
    network: opts.network as boolean | undefined,
  };
}

/** Options shared by `run` (and later `bench run`) from commander's parsed flags. */
function runOptions(opts: Record<string, unknown>, tests: string[] | undefined) {
  return {
    repo: opts.repo as string,
    target: opts.target as string,
    blank: !!opts.blank,
    provider: opts.provider as string | undefined,
    model: opts.model as string | undefined,
    baseUrl: opts.baseUrl as string | undefined,
    script: opts.script as string | undefined,
    json: !!opts.json,
    apply: !!opts.apply,
    applyFailing: !!opts.applyFailing,
    T: opts.maxTests as number,
    pregenRounds: opts.pregenRounds as number | undefined,
    rrwAttempts: opts.rrwAttempts as number | undefined,
    rrwRounds: opts.rrwRounds as number | undefined,
    strategy: opts.strategy as 'tenet' | 'tdd' | 'tenet+tdd' | undefined,
    tddSetupRounds: opts.tddSetupRounds as number | undefined,
    tddIterations: opts.tddIterations as number | undefined,
    testQuality: opts.testQuality as boolean,
    select: opts.select as 'thm' | 'random' | 'shortest' | 'longest' | 'most-assertions' | undefined,
    testStage: opts.testStage as 'none' | 'pregen' | 'postgen' | 'all' | undefined,
    ablations: { noThm: opts.thm === false, noApis: opts.apis === false, noRrw: opts.rrw === false },
    python: opts.python as string | undefined,
    testTimeout: opts.testTimeout as number | undefined,
    thmTimeout: opts.thmTimeout as number | undefined,
    jobs: opts.jobs as number | 'auto',
    fork: opts.fork as boolean,
    sessionsDir: opts.sessionsDir as string | undefined,
    approve: opts.approve as 'ask' | 'auto' | undefined,
    messageFile: opts.messageFile as string | undefined,
    step: !!opts.step,
    tui: interactive(opts),
    sandbox: sandboxFlags(opts),
    tests: tests ?? [],
  };
}

/** The TUI when both ends are a terminal and no machine-readable output was asked for. */
export function interactive(opts: Record<string, unknown>): boolean {
  return !!process.stdout.isTTY && !!process.stdin.isTTY && !opts.json && !opts.headless;
}

export function buildProgram(tests: string[] | undefined, setExit: (code: number) => void): Command {
  const program = new Command('tenet')
    .description('Test-driven, repository-level code generation for Python repositories (TENET, TDD-Agent).')
    .version('0.1.0')
    .showHelpAfterError('(run with --help for usage)')
    // Before any subcommand is added, so they inherit it: usage errors become exit code 2, not 1.
    .exitOverride()
    // The root's own options (--repo for the start screen) must not swallow a command's.
    .enablePositionalOptions()
    .addHelpText('after', '\nEverything after --tests is passed to pytest unchanged.\nWith no command, in a terminal: the start screen over --repo (default: the current folder).')
    .option('--repo <dir>', 'with no command: the repository of the start screen')
    .option('--sessions-dir <dir>', 'with no command: where the session is saved')
    .action(async (opts) => {
      if (!process.stdout.isTTY || !process.stdin.isTTY) {
        program.outputHelp();
        return;
      }
      const { startCommand } = await import('./commands/start');
      setExit(await startCommand({ repo: opts.repo, sessionsDir: opts.sessionsDir }));
    });

  program
    .command('thm')
    .description("Test Harness Mechanism: run the suite against the unimplemented target, cluster the failing tests by the target's direct caller, select at most T")
    .requiredOption('--repo <dir>', 'root folder of the Python repository')
    .requiredOption('--target <file::qualname>', 'the function: path/to/module.py::func or path/to/module.py::Class.method')
    .option('--blank', "benchmark mode: blank the target's real body (keeping signature, decorators, docstring) and keep it as ground truth")
    .addOption(new Option('-T, --max-tests <n>', 'how many tests to select (a number or "all")').argParser(budget).default(3))
    .option('--json', 'print one JSON object instead of text')
    .option('--python <path>', 'Python interpreter (default: $TENET_PYTHON, the repo .venv/venv, python3)')
    .addOption(new Option('--test-timeout <seconds>', 'time limit per test').argParser(positiveNumber('--test-timeout')).default(60))
    .addOption(new Option('--timeout <seconds>', 'time limit for the whole THM run').argParser(positiveNumber('--timeout')).default(3600))
    .addOption(new Option('--jobs <n>', 'pytest processes to shard the suite over ("auto": by suite size and cores)').argParser(jobsValue).default('auto'))
    .option('--no-fork', 'benchmark mode in two passes (blank, then the failing tests on the original) instead of forking a blank twin per test')
    .option('--keep-workspace', 'keep the scratch copy of the repository and print where it is')
    .option('--tests <pytest-args...>', 'pytest arguments for the scope (everything after --tests)')
    .action(async (opts) => {
      const { thmCommand } = await import('./commands/thm');
      setExit(
        await thmCommand({
          repo: opts.repo,
          target: opts.target,
          blank: !!opts.blank,
          T: opts.maxTests,
          json: !!opts.json,
          python: opts.python,
          testTimeout: opts.testTimeout,
          timeout: opts.timeout,
          jobs: opts.jobs,
          fork: opts.fork,
          keepWorkspace: !!opts.keepWorkspace,
          sandbox: sandboxFlags(opts),
          tests: tests ?? [],
        }),
      );
    });
  program
    .command('run')
    .description('run the whole pipeline: THM, the agent, evaluation on every failing test (the TUI in a terminal, else lines or --json)')
    .requiredOption('--repo <dir>', 'root folder of the Python repository')
    .requiredOption('--target <file::qualname>', 'the function to generate')
    .option('--blank', "benchmark mode: blank the target's real body and keep it as ground truth")
    .option('--provider <name>', 'openai, anthropic or scripted (default: from the config, else the API key in the environment)')
    .option('--model <name>', 'model name (openai default gpt-4.1-mini, anthropic claude-sonnet-4-5)')
    .option('--base-url <url>', 'API base URL: an OpenAI-compatible server (DeepSeek, vLLM, Ollama, llama.cpp) or an Anthropic endpoint')
    .option('--script <file>', 'with --provider scripted: the JSON script of model turns to replay')
    .option('--json', 'print one JSON event per line; the last is {"type":"result",…}')
    .option('--apply', "apply the patch to the checkout at the end, if the run passed (and the target's file is unchanged)")
    .option('--apply-failing', 'apply the patch even when the run did not pass')
    .addOption(new Option('-T, --max-tests <n>', 'tests THM selects (a number or "all")').argParser(budget).default(3))
    .addOption(new Option('--pregen-rounds <n>', 'model calls before the first submission').argParser(positiveInt('--pregen-rounds')))
    .addOption(new Option('--rrw-attempts <n>', 'refinement attempts').argParser((v: string) => (v === '0' ? 0 : positiveInt('--rrw-attempts')(v))))
    .addOption(new Option('--rrw-rounds <n>', 'model calls per refinement attempt').argParser(positiveInt('--rrw-rounds')))
    .addOption(new Option('--strategy <name>', "tenet (the paper's pipeline), tdd (TDD-Agent: tests first, tests and code refined together) or tenet+tdd").choices(['tenet', 'tdd', 'tenet+tdd']))
    .addOption(new Option('--tdd-setup-rounds <n>', 'TDD: model calls to write the first tests (default 15)').argParser(positiveInt('--tdd-setup-rounds')))
    .addOption(new Option('--tdd-iterations <n>', 'TDD: runs of the agent\'s tests in co-refinement (default 10)').argParser(positiveInt('--tdd-iterations')))
    .option('--no-test-quality', "TDD: skip measuring the agent's tests (coverage, mutation score) at the end")
    .option('--no-thm', 'ablation: give the agent every failing test instead of THM\'s selection')
    .option('--no-apis', "ablation: SpecRover's AST search tools only, without TENET's four")
    .option('--no-rrw', 'ablation: refine with test feedback only, without the three-stage workflow')
    .addOption(new Option('--select <strategy>', "ablation (RQ4): how the agent's tests are chosen").choices(['thm', 'random', 'shortest', 'longest', 'most-assertions']))
    .addOption(new Option('--test-stage <stage>', 'ablation (RQ5): when tests take part: none, pregen (before the first submission), postgen (validation and refinement only), all').choices(['none', 'pregen', 'postgen', 'all']))
    .option('--python <path>', 'Python interpreter')
    .addOption(new Option('--test-timeout <seconds>', 'time limit per test').argParser(positiveNumber('--test-timeout')))
    .addOption(new Option('--thm-timeout <seconds>', 'time limit for THM').argParser(positiveNumber('--thm-timeout')))
    .addOption(new Option('--jobs <n>', 'pytest processes for THM').argParser(jobsValue).default('auto'))
    .option('--no-fork', 'THM in two passes instead of forking blank twins')
    .option('--sessions-dir <dir>', 'where sessions are saved (default: $TENET_SESSIONS_DIR, else sessions/ of the installation)')
    .addOption(new Option('--approve <mode>', "the model's shell commands in a local sandbox: ask (TUI) or auto").choices(['ask', 'auto']))
    .option('--headless', 'print lines instead of the TUI, even in a terminal')
    .option('--message-file <file>', 'each line written to this file while the run goes on is a message for the model, sent with its next request')
    .option('--step', 'step mode: pause before every model call and tool call (in the TUI `s` toggles it; headless, each pause reads a line from stdin)')
    .option('--tests <pytest-args...>', 'pytest arguments for the scope (everything after --tests)')
    .action(async (opts) => {
      const { runCommand } = await import('./commands/run');
      setExit(await runCommand(runOptions(opts, tests)));
    });

  program
    .command('tool')
    .argument('[name]', 'the tool to call (omit to list the tools)')
    .description('call one of the agent\'s tools by hand and print exactly the text the model would receive')
    .option('--repo <dir>', 'root folder of the Python repository')
    .option('--target <file::qualname>', 'the target function')
    .option('--blank', 'benchmark mode: blank the target first, as the agent would see it')
    .option('--arg <key=value>', 'a tool argument (repeatable)', (value: string, previous: string[]) => [...previous, value], [] as string[])
    .option('--selected <nodeid...>', 'tests run_tests runs (default: THM\'s selection)')
    .option('--python <path>', 'Python interpreter')
    .option('--json', 'print the outcome as JSON (or, without a name, the tool definitions)')
    .option('--tests <pytest-args...>', 'pytest scope for THM when run_tests needs a selection')
    .action(async (name: string | undefined, opts) => {
      const { toolCommand } = await import('./commands/tool');
      setExit(
        await toolCommand({
          name,
          repo: opts.repo,
          target: opts.target,
          blank: !!opts.blank,
          args: opts.arg,
          selected: opts.selected,
          python: opts.python,
          json: !!opts.json,
          sandbox: sandboxFlags(opts),
          tests: tests ?? [],
        }),
      );
    });

  program
    .command('demo')
    .description('run a whole session on the built-in example (examples/invoicing): a scripted demo model, or your model if a key is configured')
    .option('--json', 'print one JSON event per line')
    .option('--provider <name>', 'use this provider instead of the scripted demo model')
    .option('--model <name>', 'model name')
    .option('--base-url <url>', 'API base URL')
    .option('--sessions-dir <dir>', 'where the session is saved')
    .addOption(new Option('--strategy <name>', 'tenet (default) or tdd: the demo model follows the TDD-Agent workflow (tests first)').choices(['tenet', 'tdd']))
    .addOption(new Option('--approve <mode>', "the model's shell commands: ask (TUI) or auto").choices(['ask', 'auto']))
    .option('--headless', 'print lines instead of the TUI, even in a terminal')
    .action(async (opts) => {
      const { demoCommand } = await import('./commands/demo');
      setExit(
        await demoCommand({ json: !!opts.json, provider: opts.provider, model: opts.model, baseUrl: opts.baseUrl, sessionsDir: opts.sessionsDir, tui: interactive(opts), approve: opts.approve, sandbox: sandboxFlags(opts), strategy: opts.strategy }),
      );
    });

  const sessionsDirOption = () => new Option('--sessions-dir <dir>', 'sessions folder (default: $TENET_SESSIONS_DIR, else ~/.local/state/tenet/sessions)');
  program
    .command('sessions')
    .description('list saved sessions')
    .addOption(sessionsDirOption())
    .addOption(new Option('--status <status>', 'only sessions with this status').choices(SESSION_STATUSES))
    .option('--target <text>', 'only sessions whose target contains this text')
    .option('--repo <dir>', 'only sessions of this repository')
    .option('--json', 'print the catalog rows as JSON')
    .option('--headless', 'print the list, even in a terminal')
    .action(async (opts) => {
      const { sessionsCommand } = await import('./commands/sessions');
      setExit(await sessionsCommand({ dir: opts.sessionsDir, status: opts.status, target: opts.target, repo: opts.repo, json: !!opts.json, tui: interactive(opts) }));
    });
  program
    .command('show')
    .argument('<session>', 'session id, unique prefix, "last", "demo", or a file')
    .description('print a readable transcript of a session')
    .addOption(sessionsDirOption())
    .action(async (ref: string, opts) => {
      const { showCommand } = await import('./commands/sessions');
      setExit(showCommand({ dir: opts.sessionsDir, ref }));
    });
  program
    .command('replay')
    .argument('<session>', 'session id, unique prefix, "last", "demo", or an events.jsonl / exported JSON file')
    .description('replay the recorded events of a session (headless: --json prints them)')
    .addOption(sessionsDirOption())
    .option('--json', 'print the events as JSON lines')
    .option('--headless', 'print the events as the run printed them, even in a terminal')
    .addOption(new Option('--speed <n>', 'replay speed in the terminal (0.5 to 50, or max)').argParser((v: string) => (v === 'max' ? Infinity : positiveNumber('--speed')(v))).default(1))
    .action(async (ref: string, opts) => {
      const { replayCommand } = await import('./commands/sessions');
      setExit(await replayCommand({ dir: opts.sessionsDir, ref, json: !!opts.json, tui: interactive(opts), speed: opts.speed }));
    });
  program
    .command('export')
    .argument('<session>', 'session id, unique prefix, "last" or "demo"')
    .description('write a session as one self-contained JSON document (loadable by replay and rerun), a Markdown transcript, or an HTML page that replays it')
    .addOption(sessionsDirOption())
    .addOption(new Option('--format <format>', 'json, md or html').choices(['json', 'md', 'html']).default('json'))
    .option('--out <file>', 'write to this file instead of stdout')
    .action(async (ref: string, opts) => {
      const { exportCommand } = await import('./commands/sessions');
      setExit(exportCommand({ dir: opts.sessionsDir, ref, format: opts.format, out: opts.out }));
    });
  program
    .command('resume')
    .argument('<session>', 'session id, unique prefix or "last"')
    .description('continue an interrupted session from its last completed step')
    .addOption(sessionsDirOption())
    .option('--provider <name>', 'use another provider than the one recorded')
    .option('--model <name>', 'use another model')
    .option('--base-url <url>', 'use another API base URL')
    .option('--repo <dir>', 'the repository, when it is no longer where the session recorded it')
    .option('--python <path>', 'Python interpreter instead of the recorded one')
    .option('--json', 'print one JSON event per line')
    .action(async (ref: string, opts) => {
      const { resumeCommand } = await import('./commands/resume');
      setExit(await resumeCommand({ dir: opts.sessionsDir, ref, provider: opts.provider, model: opts.model, baseUrl: opts.baseUrl, repo: opts.repo, python: opts.python, json: !!opts.json }));
    });
  program
    .command('rerun')
    .argument('<session>', 'session id, unique prefix, "last", "demo", or a file')
    .description('run a saved session again with the current code and the recorded model answers (no API cost); report divergences')
    .addOption(sessionsDirOption())
    .option('--repo <dir>', 'the repository, when it is not where the session recorded it (e.g. a session from another machine)')
    .option('--python <path>', 'Python interpreter instead of the recorded one')
    .option('--json', 'print the divergences as JSON')
    .action(async (ref: string, opts) => {
      const { rerunCommand } = await import('./commands/resume');
      setExit(await rerunCommand({ dir: opts.sessionsDir, ref, repo: opts.repo, python: opts.python, json: !!opts.json }));
    });
  program
    .command('mutate')
    .description("how well one test file checks the target: mutation score (small changes to the function that make a test fail) and the function's line and branch coverage")
    .option('--repo <dir>', 'root folder of the Python repository (required)')
    .option('--target <file::qualname>', 'the function (required); its body as the repository has it is the ground truth')
    .option('--tests <file>', 'the pytest file to judge, relative to --repo (required)')
    .option('--python <path>', 'Python interpreter (default: $TENET_PYTHON, the repo .venv/venv, python3)')
    .addOption(new Option('--jobs <n>', 'worker processes (default: the number of cores)').argParser(positiveInt('--jobs')))
    .addOption(new Option('--max <n>', 'at most this many mutants, spread evenly over the function').argParser(positiveInt('--max')).default(200))
    .addOption(new Option('--mutant-timeout <seconds>', 'time limit per mutant (default: twice the baseline run plus 2 s)').argParser(positiveNumber('--mutant-timeout')))
    .option('--json', 'print one JSON object instead of text')
    .action(async (_opts, command: Command) => {
      // main() hands everything after --tests to `tests`: here that is the test file, then any of
      // mutate's own flags written after it, parsed now.
      const [file, ...rest] = tests ?? [];
      const { operands, unknown } = command.parseOptions(rest);
      if (operands.length || unknown.length) command.error(`error: unexpected arguments after --tests ${file}: ${[...operands, ...unknown].join(' ')}`);
      const opts = command.opts();
      if (!opts.repo || !opts.target || !file) {
        throw new TenetError('tenet mutate needs --repo, --target and --tests.', 'tenet mutate --repo DIR --target FILE::QUALNAME --tests FILE');
      }
      const { mutateCommand } = await import('./commands/mutate');
      setExit(await mutateCommand({ repo: opts.repo, target: opts.target, tests: file, python: opts.python, jobs: opts.jobs, max: opts.max, timeout: opts.mutantTimeout, json: !!opts.json }));
    });
  const bench = program.command('bench').description('benchmarks: make RepoCod-style task sets from repositories, run them at scale, report the tables');
  bench
    .command('make')
    .description('RepoCod-style tasks from a repository: functions with non-trivial bodies that tests reach, each blanked and checked by THM (at least --min-failing tests fail blank and pass on the original)')
    .requiredOption('--repo <dir>', 'the repository (it is copied, never changed)')
    .requiredOption('--out <file>', 'the tasks file to write (JSON lines, one task each, written as THM confirms them)')
    .addOption(new Option('--count <n>', 'tasks to make').argParser(positiveInt('--count')).default(10))
    .addOption(new Option('--min-failing <n>', 'failing tests a task needs').argParser(positiveInt('--min-failing')).default(1))
    .addOption(new Option('--seed <n>', 'the order candidates are tried in (same seed, same tasks)').argParser(wholeNumber('--seed')).default(0))
    .option('--name <name>', "RepoCod's `repository` field (default: the folder's name)")
    .option('--python <path>', 'Python interpreter (default: $TENET_PYTHON, the repository\'s .venv, python3)')
    .option('--from <file>', "RepoCod's own rows (JSON lines or a JSON array) to make into tasks, for the checkout given by --repo, instead of picking functions")
    .option('--json', 'print the summary as one JSON object')
    .option('--tests <pytest-args...>', 'pytest arguments for the scope (everything after --tests)')
    .action(async (opts) => {
      const { benchMakeCommand } = await import('./commands/bench-make');
      setExit(await benchMakeCommand({ repo: opts.repo, out: opts.out, tests: tests ?? [], count: opts.count, minFailing: opts.minFailing, seed: opts.seed, name: opts.name, python: opts.python, json: !!opts.json, from: opts.from }));
    });
  bench
    .command('run')
    .argument('<tasks>', 'a tasks file (JSON lines from `tenet bench make`, or a RepoCod export)')
    .description('run every task as a saved session, N at a time, locally or over Docker engines; resumable (finished tasks are skipped)')
    .requiredOption('--out <dir>', 'the run folder: run.json, results.jsonl, sessions/ (one folder per configuration)')
    .addOption(new Option('--parallel <n>', 'tasks at a time').argParser(positiveInt('--parallel')).default(1))
    .option('--label <name>', 'the configuration\'s name in reports (default: from the settings)')
    .option('--repos <dir>', 'folder with a checkout of each repository by name (for tasks that do not record theirs, e.g. RepoCod rows)')
    .option('--task <id...>', 'only these tasks (repository-repo_id)')
    .addOption(new Option('--limit <n>', 'only the first N tasks').argParser(positiveInt('--limit')))
    .option('--retry-errors', 'run again the tasks that ended in an error (not the ones that failed)')
    .option('--provider <name>', 'openai, anthropic or scripted')
    .option('--model <name>', 'model name')
    .option('--base-url <url>', 'API base URL')
    .option('--script <file>', 'with --provider scripted: the script; {{full_function}}, {{name}}, {{target}}… are filled in per task')
    .addOption(new Option('--strategy <name>', 'tenet, tdd or tenet+tdd').choices(['tenet', 'tdd', 'tenet+tdd']))
    .addOption(new Option('-T, --max-tests <n>', 'tests THM selects (1, 3, 5, 10 or "all")').argParser(budget).default(3))
    .addOption(new Option('--select <strategy>', 'ablation (RQ4): how the tests are chosen').choices(['thm', 'random', 'shortest', 'longest', 'most-assertions']))
    .addOption(new Option('--test-stage <stage>', 'ablation (RQ5): when tests take part').choices(['none', 'pregen', 'postgen', 'all']))
    .option('--no-thm', 'ablation: every failing test instead of THM\'s selection')
    .option('--no-apis', "ablation: SpecRover's AST search tools only")
    .option('--no-rrw', 'ablation: refinement with test feedback only')
    .addOption(new Option('--pregen-rounds <n>', 'model calls before the first submission').argParser(positiveInt('--pregen-rounds')))
    .addOption(new Option('--rrw-attempts <n>', 'refinement attempts').argParser((v: string) => (v === '0' ? 0 : positiveInt('--rrw-attempts')(v))))
    .addOption(new Option('--rrw-rounds <n>', 'model calls per refinement attempt').argParser(positiveInt('--rrw-rounds')))
    .addOption(new Option('--tdd-iterations <n>', 'TDD: runs of the agent\'s tests').argParser(positiveInt('--tdd-iterations')))
    .addOption(new Option('--test-timeout <seconds>', 'time limit per test').argParser(positiveNumber('--test-timeout')))
    .addOption(new Option('--jobs <n>', 'pytest processes per THM run').argParser(jobsValue))
    .addOption(new Option('--sandbox <kind>', 'local or docker').choices(['local', 'docker']))
    .option('--image <name>', 'with docker: the image')
    .option('--docker-host <url>', 'a Docker engine; repeat it to spread the tasks over several', (value: string, previous: string[]) => [...previous, value], [] as string[])
    .option('--memory <size>', 'with docker: memory limit per container')
    .addOption(new Option('--cpus <n>', 'with docker: CPU limit per container').argParser(positiveNumber('--cpus')))
    .option('--json', 'print a JSON summary instead of the progress bar')
    .action(async (tasksFile: string, opts) => {
      const { benchRunCommand } = await import('./commands/bench-run');
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
          provider: opts.provider,
          model: opts.model,
          baseUrl: opts.baseUrl,
          script: opts.script,
          strategy: opts.strategy,
          T: opts.maxTests,
          select: opts.select,
          testStage: opts.testStage,
          ablations: { noThm: opts.thm === false, noApis: opts.apis === false, noRrw: opts.rrw === false },
          pregenRounds: opts.pregenRounds,
          rrwAttempts: opts.rrwAttempts,
          rrwRounds: opts.rrwRounds,
          tddIterations: opts.tddIterations,
          testTimeout: opts.testTimeout,
          jobs: opts.jobs,
          sandbox: { sandbox: opts.sandbox ?? (opts.dockerHost.length ? 'docker' : undefined), image: opts.image, memory: opts.memory, cpus: opts.cpus },
          dockerHosts: opts.dockerHost,
          json: !!opts.json,
        }),
      );
    });
  bench
    .command('report')
    .description('benchmark runs side by side, as the TENET paper tabulates them: Pass@1, tokens, cost, Cost-of-Pass, API calls, wall time, overall and per repository')
    .argument('<run-dirs...>', 'run folders from `tenet bench run --out`, one configuration each, in column order')
    .addOption(new Option('--format <format>', 'md (the paper-style tables), json, or html (a self-contained page with a chart)').choices(['md', 'json', 'html']).default('md'))
    .option('--out <file>', 'write the report to this file instead of stdout')
    .action(async (runDirs: string[], opts) => {
      const { benchReportCommand } = await import('./commands/bench-report');
      setExit(await benchReportCommand({ runDirs, format: opts.format, out: opts.out }));
    });
  const image = program.command('image').description('the Docker image for --sandbox docker');
  image
    .command('build')
    .description('build the default image (tenet-python:bookworm) offline from Debian packages: debootstrap, then docker import (needs root, about a minute)')
    .option('--tag <name>', 'image name', 'tenet-python:bookworm')
    .option('--suite <name>', 'Debian release', 'bookworm')
    .option('--mirror <url>', "Debian mirror (default: the one apt uses here)")
    .option('--packages <names...>', 'more Debian packages for the image, e.g. python3-numpy')
    .option('--docker-host <url>', 'the engine to import into (default: $DOCKER_HOST, else the local socket)')
    .option('--quiet', 'print only the result')
    .action(async (opts) => {
      const { imageBuildCommand } = await import('./commands/docker');
      setExit(await imageBuildCommand({ tag: opts.tag, suite: opts.suite, mirror: opts.mirror, packages: opts.packages, dockerHost: opts.dockerHost, quiet: !!opts.quiet }));
    });
  program
    .command('gc')
    .description('remove Docker containers left by a tenet that was killed (found by label; containers of a tenet still running here stay)')
    .option('--docker-host <url>', 'the engine (default: $DOCKER_HOST, else the local socket)')
    .option('--all', 'remove the containers of running tenets too')
    .option('--dry-run', 'list what would be removed')
    .option('--json', 'print what was removed and kept as JSON')
    .action(async (opts) => {
      const { gcCommand } = await import('./commands/docker');
      setExit(await gcCommand({ dockerHost: opts.dockerHost, all: !!opts.all, dryRun: !!opts.dryRun, json: !!opts.json }));
    });

  // Where Python runs: the same flags on every command that runs it.
  for (const name of ['thm', 'run', 'tool', 'demo']) withSandboxOptions(program.commands.find((c) => c.name() === name)!);
  return program;
}

export async function main(argv: string[]): Promise<number> {
  const { own, tests } = splitTestArgs(argv);
  let exitCode: number = EXIT.pass;
  const program = buildProgram(tests, (code) => (exitCode = code));
  try {
    await program.parseAsync(own, { from: 'user' });
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'commander.helpDisplayed' || code === 'commander.version' || code === 'commander.help') return EXIT.pass;
    if (code?.startsWith('commander.')) return EXIT.badInput;
    if (error instanceof ProviderError) {
      process.stderr.write(`tenet: the model provider failed: ${error.message}\n  fix: check the API key, --model and --base-url, or try again later\n`);
      return EXIT.provider;
    }
    const known = error instanceof TenetError ? error : fileProblem(error);
    process.stderr.write(`tenet: ${describeError(known ?? error)}\n`);
    return known ? known.exitCode : EXIT.fail;
  }
  return exitCode;
}
