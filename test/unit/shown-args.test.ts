import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { shownArgs } from '../../source/engine/util/shown-args';

describe('shownArgs: arguments to paste back into a shell', () => {
  const nasty = [
    '-k',
    'not slow',
    '$HOME',
    '`touch /tmp/tenet-pwned`',
    "it's",
    'a\\b',
    '!x',
    '',
    'two\nlines',
    '*.py',
    'tests/unit',
  ];

  it('reads back exactly as given in sh: nothing expands, nothing globs, nothing runs', () => {
    // printf prints each argument the shell parsed on a line of its own, between brackets.
    const parsed = execFileSync('sh', ['-c', `printf '[%s]\\n' ${shownArgs(nasty)}`], {
      encoding: 'utf8',
      env: { HOME: '/home/someone', PATH: process.env.PATH },
    });
    expect(parsed).toBe(nasty.map((arg) => `[${arg}]\n`).join(''));
  });

  it('leaves plain arguments as they are and quotes the rest with single quotes', () => {
    expect(shownArgs(['tests/unit', '-m', 'not slow', '--tb=short', 'x::test_a'])).toBe(
      "tests/unit -m 'not slow' --tb=short x::test_a",
    );
    expect(shownArgs(["it's"])).toBe(`'it'\\''s'`);
  });
});
