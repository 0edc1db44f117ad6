import { Option, type Command } from 'commander';
import type { RunCommandOptions } from '../commands/run';
import type { SandboxFlags } from '../engine/sandbox/sandbox-spec';
import {
  interactive,
  modelFlags,
  positiveInt,
  sandboxFlags,
  sessionsDirOption,
  settingChoices,
  strategyOption,
  withAblationFlags,
  withBudgetFlags,
  withLimitFlags,
  withModelFlags,
  withSandboxFlags,
  withThmFlags,
  type Invocation,
  type ModelOpts,
  type SettingOpts,
  secondsParser,
} from './flags';

const APPROVE_MODES = ['ask', 'auto'] as const satisfies readonly RunCommandOptions['approve'][];

/** `tenet run`'s flags, as commander parses them. */
export interface RunOpts extends ModelOpts, SandboxFlags, SettingOpts {
  repo: string;
  /** Every `--target` given: one function, or a plan (several, a file, a class). */
  target: string[];
  planStopOnFail?: boolean;
  blank?: boolean;
  python?: string;
  json?: boolean;
  apply?: boolean;
  applyFailing?: boolean;
  tddSetupRounds?: number;
  testQuality: boolean;
  thmTimeout?: number;
  sessionsDir?: string;
  approve: RunCommandOptions['approve'];
  headless?: boolean;
  messageFile?: string;
  step?: boolean;
  addTests?: string[];
  /** `--no-project-instructions`. */
  projectInstructions: boolean;
}

/** What `tenet run` asks for. */
export function runRequest(opts: RunOpts, tests: string[] | undefined): RunCommandOptions {
  const shared = settingChoices(opts);
  return {
    repo: opts.repo,
    target: opts.target[0]!,
    ...(opts.target.length > 1 ? { targets: opts.target } : {}),
    ...(opts.planStopOnFail ? { planStopOnFail: true } : {}),
    blank: !!opts.blank,
    python: opts.python,
    sandbox: sandboxFlags(opts),
    testArgs: tests ?? [],
    settings: {
      ...shared,
      thmTimeoutSec: opts.thmTimeout,
      tddBudget: { ...shared.tddBudget, setupRounds: opts.tddSetupRounds },
      measureTests: opts.testQuality,
    },
    model: modelFlags(opts),
    json: !!opts.json,
    apply: !!opts.apply,
    applyFailing: !!opts.applyFailing,
    sessionsDir: opts.sessionsDir,
    approve: opts.approve,
    tui: interactive(opts),
    ...(opts.messageFile ? { messageFile: opts.messageFile } : {}),
    step: !!opts.step,
    ...(opts.addTests ? { addTests: opts.addTests } : {}),
    ...(opts.projectInstructions === false ? { instructions: 'off' as const } : {}),
  };
}

/** Steering a live run: messages from a file, step mode (`run`, and `fork`'s live part). */
export function withSteeringFlags(command: Command): Command {
  return command
    .option(
      '--message-file <file>',
      'each line written to this file while the run goes on is a message for the model, sent with its next request',
    )
    .option(
      '--step',
      'step mode: pause before every model call and tool call (in the TUI `s` toggles it; headless, each pause reads a line from stdin)',
    )
    .option(
      '--add-tests <files...>',
      "your own test files: those of their tests that fail on the stub join THM's tests and the selection (the others are named, with why, and left out)",
    );
}

/** No default: a headless run cannot ask, so only an explicit `ask` there is an error. */
export const approveOption = (help: string) => new Option('--approve <mode>', help).choices(APPROVE_MODES);

/** `tenet run` and `tenet demo`. */
export function addRunCommands(program: Command, { tests, setExit }: Invocation): void {
  const run = program
    .command('run')
    .description(
      'run the whole pipeline: THM, the agent, evaluation on every failing test (the TUI in a terminal, else lines or --json)',
    )
    .requiredOption('--repo <dir>', 'root folder of the Python repository')
    .requiredOption(
      '--target <target>',
      'the function to generate (file::qualname); a file or file::Class implements every stub in it, one at a time (a plan); give it several times for several functions',
      (value: string, given: string[] | undefined) => [...(given ?? []), value],
    )
    .option('--plan-stop-on-fail', 'a plan stops at its first target that does not pass')
    .option('--blank', "benchmark mode: blank the target's real body and keep it as ground truth");
  withModelFlags(
    run,
    'from the config, else the API key in the environment',
    'with --provider scripted: the JSON script of model turns to replay',
  )
    .option('--json', 'print one JSON event per line; the last is {"type":"result",…}')
    .option(
      '--apply',
      "apply the patch to the checkout at the end, if the run passed (and the target's file is unchanged)",
    )
    .option('--apply-failing', 'apply the patch even when the run did not pass')
    .addOption(
      strategyOption(
        "tenet (the paper's pipeline), tdd (TDD-Agent: tests first, tests and code refined together) or tenet+tdd",
      ),
    )
    .addOption(
      new Option('--tdd-setup-rounds <n>', 'TDD: model calls to write the first tests (default 15)').argParser(
        positiveInt('--tdd-setup-rounds'),
      ),
    )
    .option('--no-test-quality', "TDD: skip measuring the agent's tests (coverage, mutation score) at the end");
  withBudgetFlags(run);
  withAblationFlags(run);
  withLimitFlags(run);
  withThmFlags(run)
    .option('--python <path>', 'Python interpreter')
    .addOption(new Option('--thm-timeout <seconds>', 'time limit for THM').argParser(secondsParser('--thm-timeout')))
    .addOption(
      sessionsDirOption('where sessions are saved (default: $TENET_SESSIONS_DIR, else ~/.local/state/tenet/sessions)'),
    )
    .addOption(approveOption("the model's shell commands in a local sandbox: ask (TUI) or auto"))
    .option('--headless', 'print lines instead of the TUI, even in a terminal')
    .option('--no-project-instructions', "leave the repository's AGENTS.md (or TENET.md) out of the system prompt");
  withSteeringFlags(run).option(
    '--tests <pytest-args...>',
    'pytest arguments for the scope (everything after --tests)',
  );
  withSandboxFlags(run).action(async (opts: RunOpts) => {
    const { runCommand } = await import('../commands/run');
    setExit(await runCommand(runRequest(opts, tests)));
  });

  const demo = program
    .command('demo')
    .description(
      'run a whole session on the built-in example (examples/invoicing) with a scripted demo model: offline and free; --live for your model',
    )
    .option('--json', 'print one JSON event per line')
    .option('--live', 'the configured model answers (or --provider/--model/--base-url): its calls cost money')
    .option(
      '--plan',
      'the example of a plan (examples/shipping): three stubs of one module, one needing the other two',
    );
  withModelFlags(demo, 'the scripted demo model; with --live the configured one')
    .option('--sessions-dir <dir>', 'where the session is saved')
    .addOption(
      new Option(
        '--strategy <name>',
        'tenet (default) or tdd: the demo model follows the TDD-Agent workflow (tests first)',
      ).choices(['tenet', 'tdd'] as const),
    )
    .addOption(approveOption("the model's shell commands: ask (TUI) or auto"))
    .option('--headless', 'print lines instead of the TUI, even in a terminal');
  withSandboxFlags(demo).action(
    async (
      opts: ModelOpts &
        SandboxFlags & {
          json?: boolean;
          live?: boolean;
          sessionsDir?: string;
          strategy?: 'tenet' | 'tdd';
          approve: RunCommandOptions['approve'];
          headless?: boolean;
          plan?: boolean;
        },
    ) => {
      const { demoCommand } = await import('../commands/demo');
      setExit(
        await demoCommand({
          json: !!opts.json,
          live: !!opts.live,
          provider: opts.provider,
          model: opts.model,
          baseUrl: opts.baseUrl,
          ...(opts.contextWindow ? { contextWindow: opts.contextWindow } : {}),
          sessionsDir: opts.sessionsDir,
          tui: interactive(opts),
          approve: opts.approve,
          sandbox: sandboxFlags(opts),
          strategy: opts.strategy,
          ...(opts.plan ? { plan: true } : {}),
        }),
      );
    },
  );
}
