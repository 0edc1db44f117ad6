import type { PreparedTarget } from '../task/prepare-target';
import type { ThmReport } from '../protocol/thm-report';
import type { ScannedFunction } from './make-functions';
import { relevantTestPath } from './make-scope';
import type { BenchTask } from './task';

/** `file::qualname`, with `@line` only when another function of the file has the same qualname. */
export function targetName(fn: ScannedFunction): string {
  return `${fn.file}::${fn.qualname}${fn.ambiguous ? `@${fn.startLine}` : ''}`;
}

export interface RowInput {
  repository: string;
  /** Index of the task in the output, RepoCod's `repo_id`. */
  index: number;
  /** Absolute path of the checkout. */
  repoDir: string;
  fn: ScannedFunction;
  target: PreparedTarget;
  /** The scope THM ran on. */
  testArgs: string[];
  report: ThmReport;
}

/**
 * One task in RepoCod's shape plus tenet's part. `tenet.thm` is left for the caller to fill with
 * the report as `tenet thm --json` prints it (that rendering belongs to the commands).
 */
export function taskRow(input: RowInput): BenchTask {
  const failing = input.report.failing.map((f) => f.nodeid);
  return {
    repository: input.repository,
    repo_id: String(input.index),
    target_module_path: input.fn.file,
    function_name: input.fn.qualname,
    prompt: input.target.prompt,
    full_function: asInFile(input.target),
    relavent_test_path: relevantTestPath(failing),
    tenet: {
      repo: input.repoDir,
      target: targetName(input.fn),
      testArgs: input.testArgs,
      failing,
    },
  };
}

/**
 * The ground truth indented as the file has it, like RepoCod's rows and like `prompt`: the
 * ground truth starts at the decorator or `def`, so a method's first line would lack the
 * indentation its other lines keep.
 */
function asInFile(target: PreparedTarget): string {
  const line = target.originalText.split('\n')[target.startLine - 1] ?? '';
  return `${/^[ \t]*/.exec(line)![0]}${target.groundTruth ?? ''}`;
}
