import { describe, expect, it } from 'vitest';
import { execStatus, NOT_FOUND } from '../../source/engine/sandbox/docker/exec-process';

const ran = (stderrHead: string, killed = false) => ({ killed, program: 'pytest', stderrHead });

describe('a Docker exec status', () => {
  it('passes through a 127 the command itself returned', () => {
    expect(execStatus(127, ran(''))).toEqual({ exitCode: 127, signal: null });
    expect(execStatus(127, ran('ERROR: something went wrong\n'))).toEqual({ exitCode: 127, signal: null });
    // The shell's own wording about some other program the command ran is not about this one.
    expect(execStatus(127, ran('sh: 1: helper: not found\n'))).toEqual({ exitCode: 127, signal: null });
  });

  it('says "not found" only when the launcher could not find the program', () => {
    expect(execStatus(127, ran(`${NOT_FOUND}pytest\n`))).toEqual({
      exitCode: 127,
      signal: null,
      error: 'command not found in the container: pytest',
    });
    // The launcher's line for another name, or with more after it, is the command's own output.
    expect(execStatus(127, ran(`${NOT_FOUND}python3\n`))).toEqual({ exitCode: 127, signal: null });
    expect(execStatus(127, ran(`${NOT_FOUND}pytest\nand more\n`))).toEqual({ exitCode: 127, signal: null });
    expect(execStatus(1, ran(`${NOT_FOUND}pytest\n`))).toEqual({ exitCode: 1, signal: null });
  });

  it('reads 128 + N as signal N when tenet killed it, or always for SIGKILL', () => {
    expect(execStatus(143, ran('', true))).toEqual({ exitCode: null, signal: 'SIGTERM' });
    expect(execStatus(143, ran(''))).toEqual({ exitCode: 143, signal: null });
    expect(execStatus(137, ran(''))).toEqual({ exitCode: null, signal: 'SIGKILL' });
    expect(execStatus(0, ran(''))).toEqual({ exitCode: 0, signal: null });
    expect(execStatus(null, ran(''))).toEqual({ exitCode: null, signal: null });
  });
});
