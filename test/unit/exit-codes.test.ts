import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../source/engine/exit-codes';
import { signalExitCode } from '../../source/engine/lifecycle';
import { buildProgram } from '../../source/main';
import { ROOT } from '../helpers/fixtures';

/** `tenet --help` as printed. */
function rootHelp(): string {
  let out = '';
  const program = buildProgram(undefined, () => {}).configureOutput({ writeOut: (text) => (out += text) });
  program.outputHelp();
  return out;
}

describe('exit codes', () => {
  it('are each one number, and `tenet --help` ends by listing every one with what it means', () => {
    const codes = Object.values(EXIT);
    expect(new Set(codes).size).toBe(codes.length);
    const help = rootHelp();
    const listed = help.slice(help.indexOf('Exit codes:'));
    expect(listed).not.toBe('');
    for (const code of codes) expect(listed).toMatch(new RegExp(`^ +${code}  \\S`, 'm'));
    expect(listed).toMatch(/ 4 {2}run --apply: the run passed, but its patch was refused/);
  });

  it("of a process a signal ended are the shell's (128 + its number), and in EXIT", () => {
    expect(signalExitCode('SIGINT')).toBe(EXIT.interrupted);
    expect(signalExitCode('SIGTERM')).toBe(EXIT.terminated);
    expect(signalExitCode('SIGHUP')).toBe(EXIT.hangup);
    expect([EXIT.hangup, EXIT.interrupted, EXIT.terminated]).toEqual([128 + 1, 128 + 2, 128 + 15]);
  });

  it("are named where a command ends: no bare number as a command's exit code", () => {
    const files = [
      ...readdirSync(join(ROOT, 'source', 'commands')).map((name) => join('source', 'commands', name)),
      join('source', 'main.ts'),
      join('source', 'cli.tsx'),
      join('source', 'ui', 'run-tui.tsx'),
    ];
    const bare = files.flatMap((file) =>
      readFileSync(join(ROOT, file), 'utf8')
        .split('\n')
        .flatMap((line, i) =>
          /\breturn \d+;|process\.exit\(\d+\)|exitCode = \d+|new TenetError\(.*, \d+\)/.test(line)
            ? [`${file}:${i + 1}: ${line.trim()}`]
            : [],
        ),
    );
    expect(bare).toEqual([]);
  });
});
