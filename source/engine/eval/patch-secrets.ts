import { findSecretShapes } from '../secrets';

/**
 * The patch is the developer's code: it is written into the checkout (or a patch file) as the
 * model wrote it, never redacted. What it brings in that is shaped like a secret is said instead,
 * by file and line, where the result is shown (the copies of it that tenet stores and prints are
 * redacted like all text). A shape the file already held before the run is not the patch's.
 */
export function secretsInPatch(file: string, before: string, after: string): string[] {
  const held = new Set(findSecretShapes(before).map(({ start, end }) => before.slice(start, end)));
  const warnings: string[] = [];
  for (const { start, end, kind } of findSecretShapes(after)) {
    if (held.has(after.slice(start, end))) continue;
    const line = after.slice(0, start).split('\n').length;
    warnings.push(`the patch holds a string shaped like ${kind.noun} at ${file}:${line}`);
  }
  return warnings;
}
