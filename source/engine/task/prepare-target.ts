import { TenetError } from '../errors';
import { findFunction, functionParts, isStubBody, signatureAndDocstring } from '../python-source/function-parts';
import { parsePython } from '../python-source/parser';
import type { ResolvedTarget } from './resolve-target';
import { blankFunction, instrumentTarget } from './rewrite';

export type TargetMode = 'stub' | 'blank';

/** The target module in each of the states tenet needs. */
export interface PreparedTarget extends ResolvedTarget {
  mode: TargetMode;
  /** Module text as in the user's checkout. */
  originalText: string;
  /** Module text the agent starts from: the blank (benchmark mode) or the developer's stub. */
  startText: string;
  /** Module text for a THM run that records chains: startText with the probe as the target's first statement. */
  probedText: string;
  /** Benchmark mode: the original module with the probe in the target, for THM's twin mode. */
  probedOriginalText?: string;
  /** Why THM's chains for this target may not be taken at its call (see instrumentTarget). */
  probeNote?: string;
  /** Benchmark mode: the original function (decorators included), kept as ground truth. */
  groundTruth?: string;
  /** Signature and docstring of the target. */
  prompt: string;
  /** Whether the target's body in the checkout is a stub (see isStubBody) or implemented. */
  body: 'stub' | 'implemented';
  /** The line of the original body's first statement after the docstring (1-based): the target's line in THM's chains, in every mode. */
  bodyLine: number;
  /**
   * A plan: the earlier targets whose code the model wrote and the workspace keeps (where each
   * starts as this target starts). The judge counts their definitions as submitted code too.
   */
  alsoSubmitted?: { file: string; qualname: string; startLine: number }[];
}

async function partsOf(text: string, target: ResolvedTarget) {
  const tree = await parsePython(text);
  try {
    const definition = findFunction(tree, target.qualname, target.startLine);
    if (!definition) throw new TenetError(`Lost track of ${target.id} while rewriting it (line ${target.startLine}).`);
    return { ...functionParts(text, definition), stub: isStubBody(definition.node) };
  } finally {
    tree.delete();
  }
}

/**
 * Stub mode on a function that has a real body: the tests run against that body, so only those it
 * fails count. A partial implementation is a fair start; finished code is more likely a forgotten
 * --blank, so the warning says what to do in that case.
 */
export function implementedWarning(
  target: Pick<PreparedTarget, 'id' | 'qualname' | 'mode' | 'body'>,
): string | undefined {
  if (target.mode !== 'stub' || target.body !== 'implemented') return undefined;
  return (
    `${target.qualname} already has a real body, not a stub (pass, ..., raise NotImplementedError): stub mode runs the tests against that body, so only the tests it fails count. ` +
    `If it is finished code, pass --blank (benchmark mode: tenet blanks it and keeps it as ground truth), or stub its body to generate it anew.`
  );
}

/** The 1-based line of a character index. */
function lineAt(text: string, index: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < index; at = text.indexOf('\n', at + 1)) line++;
  return line;
}

export async function prepareTarget(target: ResolvedTarget, mode: TargetMode): Promise<PreparedTarget> {
  const originalText = target.source.text;
  const parts = await partsOf(originalText, target);
  const prompt = signatureAndDocstring(originalText, parts);
  const startText = mode === 'blank' ? blankFunction(originalText, parts) : originalText;
  const startParts = mode === 'blank' ? await partsOf(startText, target) : parts;
  const probed = instrumentTarget(startText, startParts);
  const probedOriginal = mode === 'blank' ? instrumentTarget(originalText, parts) : undefined;
  const probeNote = probedOriginal?.note ?? probed.note;
  return {
    ...target,
    mode,
    originalText,
    startText,
    probedText: probed.text,
    ...(probedOriginal ? { probedOriginalText: probedOriginal.text } : {}),
    ...(probeNote ? { probeNote } : {}),
    ...(mode === 'blank' ? { groundTruth: originalText.slice(parts.outerStart, parts.end) } : {}),
    prompt,
    body: parts.stub ? 'stub' : 'implemented',
    bodyLine: lineAt(originalText, parts.statementsStart ?? parts.headerEnd + 1),
  };
}
