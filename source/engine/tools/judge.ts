import { posix } from 'node:path';
import { listDefinitions } from '../python-source/definitions';
import { parsePython } from '../python-source/parser';
import { decodeSource } from '../python-source/source-text';
import type { PassOptions, PassResult } from '../thm/pass-types';
import type { ToolContext } from './context';

/** What the judge needs of a run: its workspace, the sandbox over it, and the target. */
type JudgedRun = Pick<ToolContext, 'workspace' | 'sandbox' | 'target'>;

/**
 * tenet's judge over a run of the submitted code (see source/python/_tenet_judge/): where the
 * submission stands in the target's module, so the judge knows its code, and a mark of the run's
 * start, so that what the judged code wrote in the copy is seen before a crashed process is
 * started again (it would load a conftest.py planted there).
 */
export async function openJudge(ctx: JudgedRun, label: string): Promise<NonNullable<PassOptions['judge']>> {
  const lines = await submittedLines(ctx, ctx.target);
  // A plan's earlier targets: code the model wrote too, in this module or another.
  const spans: [string, number, number][] = [];
  for (const place of ctx.target.alsoSubmitted ?? []) {
    const [first, last] = await submittedLines(ctx, place);
    if (first) spans.push([place.file, first, last]);
  }
  const mark = `.tenet/judge-${label}.start`;
  await ctx.workspace.write(mark, '');
  await ctx.sandbox.syncFile(mark);
  const root = ctx.sandbox.workdir;
  return {
    lines,
    changedCopy: () => changedSince(ctx, root, posix.join(root, mark)),
    ...(spans.length ? { spans } : {}),
  };
}

/** A submitted definition in its module as the tests will import it (decorators included); 0-0 where it is not found. */
async function submittedLines(
  ctx: JudgedRun,
  place: { file: string; qualname: string; startLine: number },
): Promise<[number, number]> {
  try {
    const text = decodeSource(await ctx.sandbox.readFile(place.file)).text;
    const tree = await parsePython(text);
    try {
      const nearest = listDefinitions(tree)
        .filter((d) => d.kind === 'function' && d.qualname === place.qualname)
        .sort((a, b) => Math.abs(a.startLine - place.startLine) - Math.abs(b.startLine - place.startLine))[0];
      return nearest ? [nearest.startLine, nearest.endLine] : [0, 0];
    } finally {
      tree.delete();
    }
  } catch {
    return [0, 0];
  }
}

/** Files a Python process loads as it starts or collects: a change to one since the mark would reach the next process. */
const LOADED = ['*.py', '*.pth', '*.ini', '*.cfg', '*.toml'];

/** What changed in the copy since the mark, in words, or undefined. */
async function changedSince(ctx: JudgedRun, root: string, mark: string): Promise<string | undefined> {
  const names = LOADED.flatMap((pattern, index) => (index ? ['-o', '-name', pattern] : ['-name', pattern]));
  const found = await ctx.sandbox.run(
    [
      'find',
      root,
      '-path',
      posix.join(root, '.tenet'),
      '-prune',
      '-o',
      '-name',
      '__pycache__',
      '-prune',
      '-o',
      '(',
      '-type',
      'f',
      '-o',
      '-type',
      'l',
      ')',
      // Changed (ctime, which no process can set back) after the mark was made (its ctime too:
      // -cnewer would take its mtime, whole seconds in a container's copy).
      '-newercc',
      mark,
      '(',
      ...names,
      ')',
      '-print',
    ],
    { timeoutMs: 60_000 },
  );
  if (found.exitCode !== 0)
    return `the judge could not list what the judged code wrote in the copy (${found.stderr.trim().split('\n')[0] || `find exited with ${found.exitCode}`})`;
  const changed = found.stdout
    .split('\n')
    .filter(Boolean)
    .map((path) => posix.relative(root, path));
  if (!changed.length) return undefined;
  const shown = `${changed.slice(0, 5).join(', ')}${changed.length > 5 ? ` and ${changed.length - 5} more` : ''}`;
  return `the judged code wrote ${shown} in the copy under judgment, which the next test process would load`;
}

/** Why a judged run's outcomes cannot be trusted, in words (the first trip, or the forgery), or undefined. */
export function judgedProblem(result: PassResult): string | undefined {
  const trip = result.tripped[0];
  if (trip) {
    const where = trip.file ? ` at ${trip.file}:${trip.line}` : '';
    const detail = trip.detail ? ` (${trip.detail})` : '';
    return `the submission reached into the test harness: ${trip.event}${where}${detail}`;
  }
  if (result.forged) return `the test process's report cannot be trusted: ${result.forged}`;
  return undefined;
}
