import type { PlanState } from '../session/plan-state';
import type { PlanPlace } from '../task/plan-targets';

/**
 * What a plan's target tells the model beside its task: each conversation is a fresh one, so it
 * carries a short summary of the targets done (name, signature, a line each, and whether their
 * code is in the module now) and names those still to come, which are still stubs.
 */
export function planNote(
  state: PlanState,
  places: ReadonlyMap<string, PlanPlace>,
  current: string,
): string | undefined {
  const ended = [...state.ended.values()];
  const later = state.queue.filter((target) => target !== current);
  if (!ended.length && !later.length) return undefined;
  const total = ended.length + 1 + later.length;
  const lines = [
    `This function is target ${ended.length + 1} of ${total} of a plan that implements several stubs, one at a time.`,
  ];
  if (ended.length) {
    lines.push('Done so far:');
    for (const end of ended) {
      const place = places.get(end.target)!;
      const how = end.kept
        ? 'passed; its code is in the module now'
        : 'not passed; its stub is left as it was (calling it raises as before)';
      lines.push(
        `- ${place.qualname} in ${place.file}: \`${place.signature}\` (${how})${place.summary ? `. ${place.summary}` : ''}`,
      );
    }
  }
  if (later.length) {
    const names = later.map((target) => places.get(target)?.qualname ?? target);
    lines.push(
      `Still stubs, implemented later in the plan: ${names.join(', ')}. Calling one raises as its stub does until then; if your code needs one, call it all the same: tenet runs this target again once that one is done.`,
    );
  }
  lines.push('Implement only the target; leave the other functions as they are.');
  return lines.join('\n');
}
