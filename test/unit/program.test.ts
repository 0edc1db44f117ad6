import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../source/engine/config/config-schema';
import { SANDBOX_KINDS, SELECTIONS, STRATEGIES, TEST_STAGES } from '../../source/engine/protocol/settings';
import { buildProgram } from '../../source/main';
import { settingChoices, type SettingOpts } from '../../source/program/flags';
import { runRequest, type RunOpts } from '../../source/program/run-commands';

const program = buildProgram(undefined, () => {});
const command = (path: string): Command =>
  path.split(' ').reduce((parent: Command, name) => parent.commands.find((c) => c.name() === name)!, program);
const choicesOf = (path: string, flag: string) => command(path).options.find((o) => o.long === flag)?.argChoices;
/** A command's flags parsed from `argv`, defaults included, without running it. */
function parsed<T extends object>(path: string, argv: string[]): T {
  const cmd = command(path);
  expect(cmd.parseOptions(argv).unknown).toEqual([]);
  return cmd.opts() as T;
}

describe('the command table', () => {
  it('gives `run` and `bench run` the same shared flags, read into the same settings', () => {
    const shared = [
      '-T',
      'all',
      '--jobs',
      '2',
      '--test-timeout',
      '5',
      '--strategy',
      'tenet+tdd',
      '--pregen-rounds',
      '4',
      '--rrw-attempts',
      '0',
      '--rrw-rounds',
      '6',
      '--tdd-iterations',
      '3',
      '--no-rrw',
      '--select',
      'random',
      '--test-stage',
      'postgen',
      '--provider',
      'scripted',
      '--script',
      's.json',
    ];
    const run = runRequest(parsed<RunOpts>('run', ['--repo', 'r', '--target', 't', ...shared]), []);
    const bench = settingChoices(parsed<SettingOpts>('bench run', ['--out', 'o', ...shared]));
    const expected = {
      T: Infinity,
      jobs: 2,
      testTimeoutSec: 5,
      strategy: 'tenet+tdd',
      budget: { pregenRounds: 4, rrwAttempts: 0, rrwRounds: 6 },
      select: 'random',
      testStage: 'postgen',
      ablations: { noThm: false, noApis: false, noRrw: true },
    };
    expect(run.settings).toMatchObject({ ...expected, tddBudget: { iterations: 3 } });
    expect(bench).toMatchObject({ ...expected, tddBudget: { iterations: 3 } });
    expect(run.model).toMatchObject({ provider: 'scripted', script: 's.json' });
  });

  it('takes every list of choices from engine/protocol, as the config file does', () => {
    for (const path of ['run', 'bench run']) {
      expect(choicesOf(path, '--strategy')).toEqual([...STRATEGIES]);
      expect(choicesOf(path, '--select')).toEqual([...SELECTIONS]);
      expect(choicesOf(path, '--test-stage')).toEqual([...TEST_STAGES]);
      expect(choicesOf(path, '--sandbox')).toEqual([...SANDBOX_KINDS]);
    }
    for (const path of ['thm', 'tool', 'demo']) expect(choicesOf(path, '--sandbox')).toEqual([...SANDBOX_KINDS]);
    expect(configSchema.shape.strategy.unwrap().options).toEqual([...STRATEGIES]);
    expect(configSchema.shape.sandbox.unwrap().options).toEqual([...SANDBOX_KINDS]);
  });
});

describe('a word where a command goes', () => {
  /** What `tenet ARGS...` says on stderr, and its exit code (main's: usage errors are 2). */
  async function said(args: string[]): Promise<{ code: number; stderr: string }> {
    const { main } = await import('../../source/main');
    let stderr = '';
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) => ((stderr += chunk), true)) as typeof process.stderr.write;
    try {
      return { code: await main(args), stderr };
    } finally {
      process.stderr.write = write;
    }
  }

  it('is an unknown command, with the nearest command when one is near, else the list (not "too many arguments")', async () => {
    const typo = await said(['sesions']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("error: unknown command 'sesions'\n(Did you mean sessions?)");
    const far = await said(['frob']);
    expect(far.stderr).toContain("error: unknown command 'frob'\nThe commands: thm, tool,");
    expect(far.stderr).not.toContain('too many arguments');
    // A command still refuses operands it does not take.
    expect((await said(['demo', 'extra'])).stderr).toContain('too many arguments');
  });
});
