import { describe, expect, it } from 'vitest';
import { framesInOriginal, originalLineOf } from '../../source/engine/thm/original-lines';

const ORIGINAL = [
  'def target(x):', //         1
  '    """Doc."""', //         2
  '    if x:', //              3
  '        return 1', //       4
  '    return 2', //           5
  '', //                       6
  'def caller():', //          7
  '    return target(1)', //   8
].join('\n');

describe('originalLineOf', () => {
  it('the probe on a line of its own before a compound statement: the lines below it move back up one', () => {
    const probed = ORIGINAL.replace('    if x:', '    __import__("_tenet_probe").hit()\n    if x:');
    const lineOf = originalLineOf(probed, ORIGINAL);
    expect(lineOf(3)).toBe(3); // the probe stands for the statement it precedes
    expect(lineOf(4)).toBe(3);
    expect(lineOf(9)).toBe(8);
    expect(lineOf(2)).toBe(2);
  });

  it('the blank in place of the body: the probe and raise stand for the first statement, the lines below come back', () => {
    const blank = [
      'def target(x):',
      '    """Doc."""',
      '    __import__("_tenet_probe").hit(); raise NotImplementedError',
      '',
      'def caller():',
      '    return target(1)',
    ].join('\n');
    const lineOf = originalLineOf(blank, ORIGINAL);
    expect(lineOf(3)).toBe(3);
    expect(lineOf(6)).toBe(8);
    expect(lineOf(1)).toBe(1);
  });

  it("the probe sharing the first statement's line changes no line", () => {
    const probed = ORIGINAL.replace('    return 2', '    __import__("_tenet_probe").hit(); return 2');
    const lineOf = originalLineOf(probed, ORIGINAL);
    for (let line = 1; line <= 8; line++) expect(lineOf(line)).toBe(line);
  });
});

describe('framesInOriginal', () => {
  it("puts the target's own frame at the original body's first statement, whatever the run's text had there", () => {
    // --two-pass's blank pass: the probe and raise follow the docstring, where the original has comments before its first statement.
    const frames = [
      { name: 'tests/t.py::test_x', line: 3, comprehension: false },
      { name: 'pkg/m.py::caller', line: 6, comprehension: false },
      { name: 'pkg/m.py::target', line: 3, comprehension: false },
    ];
    const shifted = framesInOriginal(
      frames,
      { file: 'pkg/m.py', id: 'pkg/m.py::target', bodyLine: 5 },
      (line) => line + 2,
    );
    expect(shifted.map((f) => f.line)).toEqual([3, 8, 5]);
  });
});
