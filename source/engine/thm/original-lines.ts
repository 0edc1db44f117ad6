import { diffArrays } from 'diff';
import type { ProbeFrame } from './plugin-lines';

/**
 * Line numbers of the target's module as THM ran it mapped back to the module as the developer
 * has it, so that every mode reports the same chain lines. THM runs forms of the module whose
 * lines differ below the target: the probe on a line of its own (before a compound first
 * statement, one line more), the blank in place of the body (`--two-pass`'s blank pass: fewer
 * lines). A line of code that is in both maps to itself; a line THM wrote (the probe, the blank)
 * maps to the first line of what it stands for in the original (the body's first statement), or
 * where there is none, to the original line that follows it.
 */
export function originalLineOf(ran: string, original: string): (line: number) => number {
  if (ran === original) return (line) => line;
  const map: number[] = [0]; // map[ranLine] = original line (1-based)
  let originalLine = 1;
  const parts = diffArrays(ran.split('\n'), original.split('\n'));
  parts.forEach((part, index) => {
    const count = part.value.length;
    if (part.added) {
      originalLine += count; // only in the original
      return;
    }
    if (part.removed) {
      // Written by THM: stands for the original lines it replaced (the part just before or after), else for the next line.
      const neighbour = parts[index + 1]?.added
        ? originalLine
        : parts[index - 1]?.added
          ? originalLine - parts[index - 1]!.value.length
          : originalLine;
      for (let i = 0; i < count; i++) map.push(neighbour);
      return;
    }
    for (let i = 0; i < count; i++) map.push(originalLine + i);
    originalLine += count;
  });
  return (line) => map[line] ?? line;
}

/**
 * Frames of the target's file (`file::…`) with their lines as in the original module; the
 * target's own frame, last, at the original body's first statement (`bodyLine`), which is where
 * every mode's probe stands for it (the blank has no such statement to map to).
 */
export function framesInOriginal(
  frames: ProbeFrame[],
  target: { file: string; id: string; bodyLine: number },
  lineOf: (line: number) => number,
): ProbeFrame[] {
  const prefix = `${target.file}::`;
  const targetName = target.id.replace(/@\d+$/, '');
  return frames.map((frame, index) =>
    index === frames.length - 1 && frame.name === targetName
      ? { ...frame, line: target.bodyLine }
      : frame.name.startsWith(prefix)
        ? { ...frame, line: lineOf(frame.line) }
        : frame,
  );
}
