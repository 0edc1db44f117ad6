import { describe, expect, it } from 'vitest';
import type { ToolContext } from '../../source/engine/tools/context';
import { openJudge } from '../../source/engine/tools/judge';

// A plan's target is judged with the code of the targets kept before it in place: the judge must
// count that code as submitted too (else a kept target's body that walks the heap, called by a
// test directly, runs unwatched). openJudge finds each one's definition where it stands now (its
// lines moved as the bodies before it grew) and passes it as a span beside the target's lines.

const MODULE = [
  'def area(width, height):',
  '    """The area."""',
  '    return width * height',
  '',
  '',
  'def perimeter(width, height):',
  '    return 2 * (width + height)',
  '',
  '',
  'def describe(width, height):',
  '    return f"{width}x{height}"',
  '',
].join('\n');

const files: Record<string, string> = {
  'geo/shapes.py': MODULE,
  'geo/other.py': 'import os\n\n\ndef helper():\n    return os.sep\n',
};

function judgedRun(alsoSubmitted?: { file: string; qualname: string; startLine: number }[]) {
  return {
    workspace: { write: async () => undefined },
    sandbox: {
      workdir: '/work',
      syncFile: async () => undefined,
      readFile: async (file: string) => Buffer.from(files[file] ?? ''),
    },
    target: { file: 'geo/shapes.py', qualname: 'describe', startLine: 10, ...(alsoSubmitted ? { alsoSubmitted } : {}) },
  } as unknown as Pick<ToolContext, 'workspace' | 'sandbox' | 'target'>;
}

describe("the judge over a plan's target", () => {
  it("counts the kept targets' definitions, in this module or another, as submitted code", async () => {
    const judge = await openJudge(
      judgedRun([
        // Recorded where the stub was (line 1 and 4): found where the bodies are now.
        { file: 'geo/shapes.py', qualname: 'area', startLine: 1 },
        { file: 'geo/shapes.py', qualname: 'perimeter', startLine: 4 },
        { file: 'geo/other.py', qualname: 'helper', startLine: 4 },
      ]),
      'validate',
    );
    expect(judge.lines).toEqual([10, 11]);
    expect(judge.spans).toEqual([
      ['geo/shapes.py', 1, 3],
      ['geo/shapes.py', 6, 7],
      ['geo/other.py', 4, 5],
    ]);
  });

  it('a single run has no spans: its target alone is the submission', async () => {
    const judge = await openJudge(judgedRun(), 'validate');
    expect(judge.lines).toEqual([10, 11]);
    expect(judge.spans).toBeUndefined();
  });
});
