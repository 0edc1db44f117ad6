import { listDefinitions } from '../python-source/definitions';
import { isStubBody } from '../python-source/function-parts';
import { parsePython } from '../python-source/parser';
import { replaceFunction } from '../task/replace-function';

/** Where the target is: enough to find it again in a module text. */
export interface TargetPlace {
  qualname: string;
  startLine: number;
}

/**
 * The module as the agent's submissions make it: each accepted `submit_implementation`, in order,
 * put in place of the target in the original text (imports an earlier one added stay, as they did
 * in the workspace). This, not whatever the workspace file holds at the end, is the result: a
 * shell command that appended code to the file, or a target left blank in benchmark mode, never
 * reaches the patch. Undefined when nothing was submitted.
 */
export async function submittedModule(
  originalText: string,
  target: TargetPlace,
  submissions: readonly string[],
): Promise<string | undefined> {
  let text: string | undefined;
  for (const code of submissions)
    text = (await replaceFunction(text ?? originalText, target.qualname, target.startLine, code)).text;
  return text;
}

/** Whether the target in a module is still a stub (`pass`, `...`, `raise NotImplementedError`): nothing to apply. */
export async function targetIsStub(text: string, target: TargetPlace): Promise<boolean> {
  const tree = await parsePython(text);
  try {
    // Nearest to where it was: a property's getter and setter share one qualname.
    const fn = listDefinitions(tree)
      .filter((d) => d.kind === 'function' && d.qualname === target.qualname)
      .sort((a, b) => Math.abs(a.startLine - target.startLine) - Math.abs(b.startLine - target.startLine))[0];
    return !fn || isStubBody(fn.node);
  } finally {
    tree.delete();
  }
}
