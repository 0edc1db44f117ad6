import { Command } from 'commander';
import { describeError, fileProblem, TenetError } from './engine/errors';
import { EXIT, exitCodesHelp } from './engine/exit-codes';
import { ProviderError } from './engine/model/types';
import { printable } from './engine/terminal-text';
import { TENET_VERSION } from './engine/version';
import { editDistance } from './engine/util/closest';
import { addBenchCommands } from './program/bench-commands';
import { addDockerCommands } from './program/docker-commands';
import {
  modelFlags,
  sandboxFlags,
  withModelFlags,
  withSandboxFlags,
  type Invocation,
  type ModelOpts,
} from './program/flags';
import type { SandboxFlags } from './engine/sandbox/sandbox-spec';
import { addRunCommands } from './program/run-commands';
import { addSessionCommands } from './program/session-commands';
import { addTargetCommands } from './program/target-commands';

/** Everything after `--tests` belongs to pytest, in every command that takes it. */
function splitTestArgs(argv: string[]): { own: string[]; tests: string[] | undefined } {
  const at = argv.indexOf('--tests');
  if (at === -1) return { own: argv, tests: undefined };
  return { own: argv.slice(0, at), tests: argv.slice(at + 1) };
}

export function buildProgram(tests: string[] | undefined, setExit: (code: number) => void): Command {
  const program = new Command('tenet')
    .description('Test-driven, repository-level code generation for Python repositories (TENET, TDD-Agent).')
    .version(TENET_VERSION)
    .showHelpAfterError('(run with --help for usage)')
    // Before any subcommand is added, so they inherit it: usage errors become exit code 2, not 1.
    .exitOverride()
    // The root's own options (--repo for the start screen) must not swallow a command's.
    .enablePositionalOptions()
    .addHelpText(
      'after',
      `\nEverything after --tests is passed to pytest unchanged.\nWith no command, in a terminal: the start screen over --repo (default: the current folder).\n\n${exitCodesHelp()}`,
    )
    .option('--repo <dir>', 'with no command: the repository of the start screen')
    .option('--sessions-dir <dir>', 'with no command: where the session is saved')
    .option(
      '--tests <pytest-args...>',
      'with no command: pytest arguments for the scope of the session the start screen starts (everything after --tests)',
    )
    .option(
      '--step',
      'with no command: the session the start screen starts is in step mode (a pause before every model call and tool call; `s` toggles it)',
    );
  // The start screen starts a `tenet run`: it takes the same model and sandbox flags.
  withModelFlags(
    program,
    'the config, else the API key in the environment',
    'with --provider scripted: the JSON script of model turns to replay',
  );
  withSandboxFlags(program);
  program.action(async (opts: ModelOpts & SandboxFlags & { repo?: string; sessionsDir?: string; step?: boolean }) => {
    // A word where a command goes (a typo such as `tenet sesions`) reaches the root as an operand.
    if (program.args.length) unknownCommand(program, program.args[0]!);
    // A --repo that is not a folder is an error (exit 2) with or without a terminal, as in every command.
    if (opts.repo) (await import('./engine/util/checked-paths')).repositoryFolder(opts.repo);
    if (!process.stdout.isTTY || !process.stdin.isTTY) {
      program.outputHelp();
      return;
    }
    const { startCommand } = await import('./commands/start');
    setExit(
      await startCommand({
        repo: opts.repo,
        sessionsDir: opts.sessionsDir,
        model: modelFlags(opts),
        sandbox: sandboxFlags(opts),
        testArgs: tests ?? [],
        ...(opts.step ? { step: true } : {}),
      }),
    );
  });

  const invocation: Invocation = { tests, setExit };
  addTargetCommands(program, invocation);
  addRunCommands(program, invocation);
  addSessionCommands(program, invocation);
  addBenchCommands(program, invocation);
  addDockerCommands(program, invocation);
  // Only now, so the commands above keep refusing operands they do not take.
  program.allowExcessArguments();
  // What follows --tests is split off before commander parses: a command without a scope would drop it without a word.
  program.hook('preAction', (_root, command) => {
    if (tests !== undefined && !takesTests(command)) {
      const taking = commandsTakingTests(program).join(', ');
      command.error(
        `error: ${commandName(command)} takes no --tests (what follows it is the scope pytest runs, in ${taking})`,
        { exitCode: EXIT.badInput, code: 'commander.unknownOption' },
      );
    }
  });
  return program;
}

const takesTests = (command: Command) => command.options.some((option) => option.long === '--tests');

/** `tenet bench make`, `tenet` for the root. */
function commandName(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}

function commandsTakingTests(program: Command): string[] {
  const found: string[] = [];
  const visit = (command: Command) => {
    if (takesTests(command)) found.push(command.parent ? commandName(command) : 'tenet alone (the start screen)');
    command.commands.forEach(visit);
  };
  visit(program);
  return found;
}

/** `tenet frob`: said as an unknown command (commander would call it a surplus argument of the start screen), with the nearest command's name. */
function unknownCommand(program: Command, word: string): never {
  const names = program.commands.map((c) => c.name());
  const distance = new Map(names.map((name) => [name, editDistance(name, word)]));
  const nearest = Math.min(...distance.values());
  // A swap of neighbours (tmh) is one edit: a short name takes one, a longer one a third of its letters.
  const near = names.filter(
    (name) => distance.get(name) === nearest && nearest <= Math.max(1, Math.floor(name.length / 3)),
  );
  const hint = near.length ? `\n(Did you mean ${near.join(' or ')}?)` : `\nThe commands: ${names.join(', ')}.`;
  program.error(`error: unknown command '${word}'${hint}`, {
    exitCode: EXIT.badInput,
    code: 'commander.unknownCommand',
  });
}

export async function main(argv: string[]): Promise<number> {
  const { own, tests } = splitTestArgs(argv);
  let exitCode: number = EXIT.pass;
  const program = buildProgram(tests, (code) => (exitCode = code));
  try {
    await program.parseAsync(own, { from: 'user' });
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'commander.helpDisplayed' || code === 'commander.version' || code === 'commander.help')
      return EXIT.pass;
    if (code?.startsWith('commander.')) return EXIT.badInput;
    if (error instanceof ProviderError) {
      process.stderr.write(
        `tenet: the model provider failed: ${printable(error.message)}\n  fix: ${printable(error.fix)}\n`,
      );
      return EXIT.provider;
    }
    const known = error instanceof TenetError ? error : fileProblem(error);
    process.stderr.write(`tenet: ${printable(describeError(known ?? error))}\n`);
    return known ? known.exitCode : EXIT.fail;
  }
  return exitCode;
}
