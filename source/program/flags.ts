import { availableParallelism } from 'node:os';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { CALLER_RULES, type CallerRule } from '../engine/thm/clustering';
import type { ModelFlags } from '../engine/model/create-model';
import {
  SANDBOX_KINDS,
  SELECTIONS,
  STRATEGIES,
  TEST_STAGES,
  type Selection,
  type Strategy,
  type TestStage,
} from '../engine/protocol/settings';
import type { RunChoices } from '../engine/run/run-settings';
import type { SandboxFlags } from '../engine/sandbox/sandbox-spec';

/**
 * The flags several commands share, each group declared once with the reader that turns what
 * commander parsed into the engine's types. Choices come from the lists in engine/protocol/.
 * (Only types are imported from the engine: the command table loads before any command runs.)
 */

/** What a command's action has besides its flags: the arguments after `--tests`, and where its exit code goes. */
export interface Invocation {
  tests: string[] | undefined;
  setExit(code: number): void;
}

export function positiveInt(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`${name} must be a whole number ≥ 1.`);
    return n;
  };
}

/** A whole number from `min` to `max` (a terminal's columns or rows). */
export function sizeWithin(name: string, min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max)
      throw new InvalidArgumentError(`${name} must be a whole number from ${min} to ${max}.`);
    return n;
  };
}

export function positiveNumber(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError(`${name} must be a number > 0.`);
    return n;
  };
}

/** A time limit in seconds: above a day, a timer cannot be armed (`--test-timeout 1e308` errored every test). */
export const MAX_SECONDS = 86_400;

export function secondsParser(name: string) {
  return (value: string): number => {
    const n = positiveNumber(name)(value);
    if (n > MAX_SECONDS) throw new InvalidArgumentError(`${name} must be at most ${MAX_SECONDS} seconds (a day).`);
    return n;
  };
}

/**
 * `--jobs N`: more pytest processes than twice the cores only queue for them (`--jobs 1000` started
 * some 250 pytest processes), so N is capped there, with a warning.
 */
export function jobsValue(
  value: string,
  cores = availableParallelism(),
  warn: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): number | 'auto' {
  if (value === 'auto') return 'auto';
  const n = positiveInt('--jobs')(value);
  const cap = cores * 2;
  if (n <= cap) return n;
  warn(`tenet: warning: --jobs ${n} is more than twice the ${cores} cores: using ${cap}`);
  return cap;
}

export function wholeNumber(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError(`${name} must be a whole number ≥ 0.`);
    return n;
  };
}

/** A flag given more than once: every value, in order. */
export const repeated = (value: string, previous: string[]): string[] => [...previous, value];

/** The TUI when both ends are a terminal and no machine-readable output was asked for. */
export function interactive(opts: { json?: boolean; headless?: boolean }): boolean {
  return !!process.stdout.isTTY && !!process.stdin.isTTY && !opts.json && !opts.headless;
}

export const sessionsDirOption = (
  help = 'sessions folder (default: $TENET_SESSIONS_DIR, else ~/.local/state/tenet/sessions)',
) => new Option('--sessions-dir <dir>', help);

/** `--provider`, `--model`, `--base-url`; `--script` where a command replays one. */
export interface ModelOpts {
  provider?: string;
  model?: string;
  baseUrl?: string;
  script?: string;
  contextWindow?: number;
}

/** `unset`: what is used without `--provider`; `script`: the help of `--script`, for commands that take one. */
export function withModelFlags(command: Command, unset: string, script?: string): Command {
  command
    .option('--provider <name>', `openai, anthropic or scripted (default: ${unset})`)
    .option('--model <name>', 'model name (openai default gpt-4.1-mini, anthropic claude-sonnet-4-6)')
    .option(
      '--base-url <url>',
      'API base URL: an OpenAI-compatible server (DeepSeek, vLLM, Ollama, llama.cpp) or an Anthropic endpoint',
    )
    .addOption(
      new Option(
        '--context-window <tokens>',
        "the model's context window, for a model tenet's catalogue does not know (or to use less of it)",
      ).argParser(positiveInt('--context-window')),
    );
  return script ? command.option('--script <file>', script) : command;
}

export const modelFlags = (opts: ModelOpts): ModelFlags => ({
  provider: opts.provider,
  model: opts.model,
  baseUrl: opts.baseUrl,
  script: opts.script,
  ...(opts.contextWindow ? { contextWindow: opts.contextWindow } : {}),
});

/** Where Python runs: the flags of `thm`, `run`, `tool` and `demo` (`bench run` has its own, per engine). */
export function withSandboxFlags(command: Command): Command {
  return command
    .addOption(
      new Option(
        '--sandbox <kind>',
        'where Python runs: local (confined by bubblewrap), local-unconfined or docker (default: the config, else $TENET_SANDBOX, else local)',
      ).choices(SANDBOX_KINDS),
    )
    .option(
      '--image <name>',
      'with docker: an image with python3 and pytest (default: tenet-python:bookworm, see `tenet image build`)',
    )
    .option('--docker-host <url>', 'with docker: the engine (default: $DOCKER_HOST, else the local socket)')
    .option(
      '--mount',
      'with docker: bind-mount the workspace instead of copying it in (the engine must run on this machine)',
    )
    .option('--memory <size>', 'with docker: memory limit of the container, e.g. 2g (default 4g)')
    .addOption(
      new Option('--cpus <n>', 'with docker: CPU limit (default: all cores)').argParser(positiveNumber('--cpus')),
    )
    .addOption(new Option('--pids <n>', 'with docker: process limit (default 1024)').argParser(positiveInt('--pids')))
    .option(
      '--network',
      'give the sandbox a network: the container, or the local sandbox under bubblewrap (off by default)',
    )
    .option(
      '--read <path>',
      'show this path read-only to the confined local sandbox (repeatable); it sees only the system, the interpreter and the workspace otherwise',
      repeated,
      [] as string[],
    )
    .option(
      '--pass-env <name>',
      "let this variable of tenet's environment through to the sandbox's processes (repeatable); secrets and provider variables are left out otherwise",
      repeated,
      [] as string[],
    );
}

/** Only the sandbox's flags, out of everything a command parsed. */
export const sandboxFlags = (opts: SandboxFlags): SandboxFlags => ({
  sandbox: opts.sandbox,
  image: opts.image,
  dockerHost: opts.dockerHost,
  mount: opts.mount,
  memory: opts.memory,
  cpus: opts.cpus,
  pids: opts.pids,
  network: opts.network,
  passEnv: opts.passEnv,
  read: opts.read,
});

/** THM's flags, as `thm`, `run` and `bench run` parse them. */
export interface ThmOpts {
  maxTests: number;
  jobs: number | 'auto';
  testTimeout?: number;
  caller: CallerRule;
  /** `--no-reach`. */
  reach: boolean;
  /** `--two-pass`. */
  twoPass?: boolean;
  /** `--no-fork`: the old name of `--two-pass`, still taken (hidden) so that scripts written for it run. */
  fork?: boolean;
}

/** Benchmark mode in one pass unless `--two-pass` (or its old name `--no-fork`) was given. */
export const onePassOf = (opts: Pick<ThmOpts, 'twoPass' | 'fork'>): boolean => !opts.twoPass && opts.fork !== false;

/** `-T`, `--jobs`, `--test-timeout` (`testTimeout`: its default, where the config files have no say). */
export function withThmFlags(command: Command, testTimeout?: number): Command {
  const timeout = new Option('--test-timeout <seconds>', 'time limit per test').argParser(
    secondsParser('--test-timeout'),
  );
  return command
    .addOption(
      new Option('-T, --max-tests <n>', 'tests THM selects (a number or "all")')
        .argParser((value: string) => (value === 'all' ? Infinity : positiveInt('-T')(value)))
        .default(3),
    )
    .addOption(
      new Option(
        '--jobs <n>',
        'pytest processes to shard the suite and the evaluation over ("auto": by size and cores)',
      )
        .argParser((value: string) => jobsValue(value))
        .default('auto'),
    )
    .addOption(testTimeout === undefined ? timeout : timeout.default(testTimeout))
    .addOption(
      new Option(
        '--caller <rule>',
        "how a failing test's direct caller is named: use (the nearest frame that uses the target, past its wrappers and dispatchers) or nearest (the paper's literal rule: the nearest frame, library code included)",
      )
        .choices(CALLER_RULES)
        .default('use'),
    )
    .option(
      '--no-reach',
      'ignore the reach index (tenet index --reach): run the whole scope, on the original code too, not only the tests it says can fail (blank, its record standing for the original code)',
    )
    .option(
      '--two-pass',
      'benchmark mode in two passes (blank, then the failing tests on the original) instead of one pass with a blank twin per test',
    )
    .addOption(new Option('--no-fork', 'the old name of --two-pass').hideHelp());
}

/** The strategy, the budgets and the ablations, as `run` and `bench run` parse them. */
export interface SettingOpts extends ThmOpts {
  strategy?: Strategy;
  pregenRounds?: number;
  rrwAttempts?: number;
  rrwRounds?: number;
  tddIterations?: number;
  /** `--no-thm`, `--no-apis`, `--no-rrw`. */
  thm: boolean;
  apis: boolean;
  rrw: boolean;
  select?: Selection;
  testStage?: TestStage;
  /** `--max-cost`, `--max-tokens`. */
  maxCost?: number;
  maxTokens?: number;
}

export const strategyOption = (help: string) => new Option('--strategy <name>', help).choices(STRATEGIES);

/** The budgets of the strategies. */
export function withBudgetFlags(command: Command): Command {
  return command
    .addOption(
      new Option('--pregen-rounds <n>', 'model calls before the first submission').argParser(
        positiveInt('--pregen-rounds'),
      ),
    )
    .addOption(
      new Option('--rrw-attempts <n>', 'refinement attempts').argParser((value: string) =>
        value === '0' ? 0 : positiveInt('--rrw-attempts')(value),
      ),
    )
    .addOption(
      new Option('--rrw-rounds <n>', 'model calls per refinement attempt').argParser(positiveInt('--rrw-rounds')),
    )
    .addOption(
      new Option('--tdd-iterations <n>', "TDD: runs of the agent's tests in co-refinement (default 10)").argParser(
        positiveInt('--tdd-iterations'),
      ),
    );
}

/** The TENET paper's ablations (RQ2, RQ4, RQ5). */
export function withAblationFlags(command: Command): Command {
  return command
    .option('--no-thm', "ablation: give the agent every failing test instead of THM's selection")
    .option('--no-apis', "ablation: SpecRover's AST search tools only, without TENET's four")
    .option('--no-rrw', 'ablation: refine with test feedback only, without the three-stage workflow')
    .addOption(
      new Option('--select <strategy>', "ablation (RQ4): how the agent's tests are chosen").choices(SELECTIONS),
    )
    .addOption(
      new Option(
        '--test-stage <stage>',
        'ablation (RQ5): when tests take part: none, pregen (before the first submission), postgen (validation and refinement only), all',
      ).choices(TEST_STAGES),
    );
}

/** What a session may spend on its model (`run`, `fork`, and per task `bench run`); the config's `limits` otherwise. */
export function withLimitFlags(command: Command): Command {
  return command
    .addOption(
      new Option(
        '--max-cost <usd>',
        'stop the session cleanly once its model calls cost this much (USD); the patch so far is kept',
      ).argParser(positiveNumber('--max-cost')),
    )
    .addOption(
      new Option(
        '--max-tokens <n>',
        'stop the session cleanly once its model calls used this many tokens (in and out)',
      ).argParser(positiveInt('--max-tokens')),
    );
}

/** The limits the flags set (a missing one: the config files'). */
export const limitChoices = (opts: { maxCost?: number; maxTokens?: number }) => ({
  ...(opts.maxCost !== undefined ? { maxCostUsd: opts.maxCost } : {}),
  ...(opts.maxTokens !== undefined ? { maxTokens: opts.maxTokens } : {}),
});

/** What the shared flags choose of the run's settings (the rest: the config files, then the defaults). */
export function settingChoices(opts: SettingOpts): RunChoices {
  return {
    T: opts.maxTests,
    jobs: opts.jobs,
    caller: opts.caller,
    ...(opts.reach === false ? { reach: false } : {}),
    onePass: onePassOf(opts),
    testTimeoutSec: opts.testTimeout,
    strategy: opts.strategy,
    budget: { pregenRounds: opts.pregenRounds, rrwAttempts: opts.rrwAttempts, rrwRounds: opts.rrwRounds },
    tddBudget: { iterations: opts.tddIterations },
    select: opts.select,
    testStage: opts.testStage,
    ablations: { noThm: opts.thm === false, noApis: opts.apis === false, noRrw: opts.rrw === false },
    limits: limitChoices(opts),
  };
}
