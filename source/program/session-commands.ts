import { Option, type Command } from 'commander';
import { TenetError } from '../engine/errors';
import { CAST_LIMITS } from '../engine/session/asciicast';
import { SESSION_STATUSES } from '../engine/session/status';
import {
  interactive,
  limitChoices,
  positiveInt,
  positiveNumber,
  sessionsDirOption,
  sizeWithin,
  withModelFlags,
  type Invocation,
  type ModelOpts,
} from './flags';
import { approveOption, withSteeringFlags } from './run-commands';

interface SessionOpts {
  sessionsDir?: string;
  json?: boolean;
  headless?: boolean;
}

/** A session elsewhere: `--repo` and `--python` where the recorded ones are not here. */
interface RelocationOpts {
  repo?: string;
  python?: string;
}

/** The saved sessions: `sessions`, `show`, `replay`, `export`, `resume`, `rerun`. */
export function addSessionCommands(program: Command, { setExit }: Invocation): void {
  program
    .command('sessions')
    .description('list saved sessions')
    .addOption(sessionsDirOption())
    .addOption(new Option('--status <status>', 'only sessions with this status').choices(SESSION_STATUSES))
    .option('--target <text>', 'only sessions whose target contains this text')
    .option('--repo <dir>', 'only sessions of this repository')
    .option('--json', 'print the catalog rows as JSON')
    .option('--headless', 'print the list, even in a terminal')
    .action(async (opts: SessionOpts & { status?: string; target?: string; repo?: string }) => {
      const { sessionsCommand } = await import('../commands/sessions');
      setExit(
        await sessionsCommand({
          dir: opts.sessionsDir,
          status: opts.status,
          target: opts.target,
          repo: opts.repo,
          json: !!opts.json,
          tui: interactive(opts),
        }),
      );
    });
  program
    .command('show')
    .argument('<session>', 'session id, unique prefix, "last", "demo", or a file')
    .description('print a readable transcript of a session')
    .addOption(sessionsDirOption())
    .action(async (ref: string, opts: SessionOpts) => {
      const { showCommand } = await import('../commands/sessions');
      setExit(await showCommand({ dir: opts.sessionsDir, ref }));
    });
  program
    .command('replay')
    .argument('<session>', 'session id, unique prefix, "last", "demo", or an events.jsonl / exported JSON file')
    .description('replay the recorded events of a session (headless: --json prints them)')
    .addOption(sessionsDirOption())
    .option('--json', 'print the events as JSON lines')
    .option('--headless', 'print the events as the run printed them, even in a terminal')
    .addOption(
      new Option('--speed <n>', 'replay speed in the terminal (0.5 to 50, or max)')
        .argParser((v: string) => (v === 'max' ? Infinity : positiveNumber('--speed')(v)))
        .default(1),
    )
    .addOption(
      new Option(
        '--at <event>',
        'open at this event (its number, as fork --at counts them), paused; printed: the events from it on',
      ).argParser(positiveInt('--at')),
    )
    .action(async (ref: string, opts: SessionOpts & { speed: number; at?: number }) => {
      const { replayCommand } = await import('../commands/sessions');
      setExit(
        await replayCommand({
          dir: opts.sessionsDir,
          ref,
          json: !!opts.json,
          tui: interactive(opts),
          speed: opts.speed,
          ...(opts.at !== undefined ? { at: opts.at } : {}),
        }),
      );
    });
  program
    .command('export')
    .argument('<session>', 'session id, unique prefix, "last" or "demo"')
    .description(
      'write a session as one self-contained JSON document (loadable by replay and rerun), a Markdown transcript, an HTML page that replays it, or an asciinema cast of its replay',
    )
    .addOption(sessionsDirOption())
    .addOption(
      new Option('--format <format>', 'json, md, html or cast')
        .choices(['json', 'md', 'html', 'cast'] as const)
        .default('json'),
    )
    .option('--out <file>', 'write to this file instead of stdout')
    .addOption(
      new Option(
        '--cols <n>',
        `cast: the terminal's columns (at least ${CAST_LIMITS.minCols}; default ${CAST_LIMITS.cols})`,
      ).argParser(sizeWithin('--cols', CAST_LIMITS.minCols, CAST_LIMITS.maxCols)),
    )
    .addOption(
      new Option(
        '--rows <n>',
        `cast: the terminal's rows (at least ${CAST_LIMITS.minRows}; default ${CAST_LIMITS.rows})`,
      ).argParser(sizeWithin('--rows', CAST_LIMITS.minRows, CAST_LIMITS.maxRows)),
    )
    .addOption(
      new Option(
        '--idle-limit <seconds>',
        `cast: the longest pause between two frames, in seconds (default ${CAST_LIMITS.idleLimit})`,
      ).argParser(positiveNumber('--idle-limit')),
    )
    .action(
      async (
        ref: string,
        opts: SessionOpts & {
          format: 'json' | 'md' | 'html' | 'cast';
          out?: string;
          cols?: number;
          rows?: number;
          idleLimit?: number;
        },
      ) => {
        const castOnly = (['cols', 'rows', 'idleLimit'] as const).find((name) => opts[name] !== undefined);
        const flag = castOnly === 'idleLimit' ? '--idle-limit' : `--${castOnly}`;
        if (castOnly && opts.format !== 'cast')
          throw new TenetError(
            `${flag} is for --format cast (the terminal a cast is drawn in); this export is --format ${opts.format}.`,
            `add --format cast, or leave ${flag} out`,
          );
        const { exportCommand } = await import('../commands/sessions');
        const cast = {
          cols: opts.cols ?? CAST_LIMITS.cols,
          rows: opts.rows ?? CAST_LIMITS.rows,
          idleLimit: opts.idleLimit ?? CAST_LIMITS.idleLimit,
        };
        setExit(await exportCommand({ dir: opts.sessionsDir, ref, format: opts.format, out: opts.out, cast }));
      },
    );
  const resume = program
    .command('resume')
    .argument('<session>', 'session id, unique prefix or "last"')
    .description('continue an interrupted session from its last completed step')
    .addOption(sessionsDirOption());
  withModelFlags(
    resume,
    'the one the session used last',
    'the script of model turns to play from here (implies --provider scripted; default for a scripted session: its own script, from where its answers end)',
  )
    .option('--repo <dir>', 'the repository, when it is no longer where the session recorded it')
    .option('--python <path>', 'Python interpreter instead of the recorded one')
    .option('--json', 'print one JSON event per line')
    .option('--headless', 'print lines instead of the TUI, even in a terminal')
    .addOption(approveOption("the model's shell commands in a local sandbox: ask (TUI) or auto"))
    .option(
      '--apply',
      "apply the patch to the checkout at the end, if the run passed (default: as the session's run asked)",
    )
    .option('--apply-failing', "apply the patch even when the run did not pass (default: as the session's run asked)")
    .action(
      async (
        ref: string,
        opts: SessionOpts &
          RelocationOpts &
          ModelOpts & { approve?: 'ask' | 'auto'; apply?: boolean; applyFailing?: boolean },
      ) => {
        const { resumeCommand } = await import('../commands/resume');
        setExit(
          await resumeCommand({
            dir: opts.sessionsDir,
            ref,
            provider: opts.provider,
            model: opts.model,
            baseUrl: opts.baseUrl,
            ...(opts.contextWindow ? { contextWindow: opts.contextWindow } : {}),
            ...(opts.script ? { script: opts.script } : {}),
            repo: opts.repo,
            python: opts.python,
            json: !!opts.json,
            tui: interactive(opts),
            ...(opts.approve ? { approve: opts.approve } : {}),
            ...(opts.apply ? { apply: true } : {}),
            ...(opts.applyFailing ? { applyFailing: true } : {}),
          }),
        );
      },
    );
  program
    .command('rerun')
    .argument('<session>', 'session id, unique prefix, "last", "demo", or a file')
    .description(
      'run a saved session again with the current code and the recorded model answers (no API cost); report divergences',
    )
    .addOption(sessionsDirOption())
    .option(
      '--repo <dir>',
      'the repository, when it is not where the session recorded it (e.g. a session from another machine)',
    )
    .option('--python <path>', 'Python interpreter instead of the recorded one')
    .option('--json', 'print the divergences as JSON')
    .action(async (ref: string, opts: SessionOpts & RelocationOpts) => {
      const { rerunCommand } = await import('../commands/resume');
      setExit(
        await rerunCommand({ dir: opts.sessionsDir, ref, repo: opts.repo, python: opts.python, json: !!opts.json }),
      );
    });
  const fork = program
    .command('fork')
    .argument('<session>', 'session id, unique prefix, "last", "demo", or a file')
    .description(
      "a new session whose history up to an event is this one's (recorded model answers, no cost), then goes on live: another model, a message, THM's budget",
    )
    .requiredOption(
      '--at <event>',
      'the event to go on from, numbered as `tenet replay` counts them',
      positiveInt('--at'),
    )
    .addOption(sessionsDirOption());
  withModelFlags(
    fork,
    'the one the session used',
    "with --provider scripted: the script of the live part (default: the parent's, from where its answers end)",
  )
    .addOption(
      new Option(
        '-T, --max-tests <n>',
        "tests THM selects, when the fork's event comes before the tests were approved",
      ).argParser(positiveInt('-T')),
    )
    .option('--message <text>', 'a message for the live model, sent with its first request (marked as yours)')
    .addOption(
      new Option(
        '--max-cost <usd>',
        "stop the fork once its live model calls cost this much (USD); default: the parent's limit",
      ).argParser(positiveNumber('--max-cost')),
    )
    .addOption(
      new Option(
        '--max-tokens <n>',
        "stop the fork once its live model calls used this many tokens; default: the parent's limit",
      ).argParser(positiveInt('--max-tokens')),
    )
    .option('--repo <dir>', 'the repository, when it is no longer where the session recorded it')
    .option('--python <path>', 'Python interpreter instead of the recorded one')
    .option('--json', 'print one JSON event per line')
    .option('--headless', 'print lines instead of the TUI, even in a terminal')
    .addOption(approveOption("the model's shell commands in a local sandbox: ask (TUI) or auto"));
  withSteeringFlags(fork).action(
    async (
      ref: string,
      opts: SessionOpts &
        RelocationOpts &
        ModelOpts & {
          at: number;
          maxTests?: number;
          message?: string;
          maxCost?: number;
          maxTokens?: number;
          approve?: 'ask' | 'auto';
          step?: boolean;
          messageFile?: string;
          addTests?: string[];
        },
    ) => {
      const { forkCommand } = await import('../commands/fork');
      setExit(
        await forkCommand({
          dir: opts.sessionsDir,
          ref,
          at: opts.at,
          provider: opts.provider,
          model: opts.model,
          baseUrl: opts.baseUrl,
          ...(opts.contextWindow ? { contextWindow: opts.contextWindow } : {}),
          script: opts.script,
          ...(opts.maxTests !== undefined ? { T: opts.maxTests } : {}),
          ...(opts.message !== undefined ? { message: opts.message } : {}),
          limits: limitChoices(opts),
          repo: opts.repo,
          python: opts.python,
          json: !!opts.json,
          tui: interactive(opts),
          ...(opts.approve ? { approve: opts.approve } : {}),
          ...(opts.step ? { step: true } : {}),
          ...(opts.messageFile ? { messageFile: opts.messageFile } : {}),
          ...(opts.addTests ? { addTests: opts.addTests } : {}),
        }),
      );
    },
  );
}
