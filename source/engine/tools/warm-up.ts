import type { ToolContext } from './context';
import { similarityCorpus } from './similar-method';
import { findTargetUsages } from './target-usage';

/**
 * What the first searches of a session would otherwise build while the model waits: the lookups
 * by name, the similarity corpus (~0.2 s on sympy) and the target's usages. Each step runs in a
 * macrotask of its own, so a session's other work (the TUI, events) goes on between them; they
 * run while the model thinks over its first answer, which takes longer.
 */
export function warmUpSteps(ctx: Pick<ToolContext, 'index' | 'target'>): (() => void)[] {
  return [
    () => ctx.index.functionsNamed(''),
    () => ctx.index.classesNamed(''),
    () => similarityCorpus(ctx.index),
    () => findTargetUsages(ctx.index, ctx.target),
  ];
}

/** Runs the steps in the background; the returned function stops what has not run yet. */
export function scheduleWarmUp(ctx: Pick<ToolContext, 'index' | 'target'>): () => void {
  const steps = warmUpSteps(ctx);
  let timer: NodeJS.Timeout | undefined;
  const next = () => {
    const step = steps.shift();
    if (!step) return;
    try {
      step();
    } catch {
      // Only a head start: the tool that needs it builds it again, and reports what goes wrong.
    }
    timer = setTimeout(next, 0).unref();
  };
  timer = setTimeout(next, 0).unref();
  return () => {
    steps.length = 0;
    clearTimeout(timer);
  };
}
