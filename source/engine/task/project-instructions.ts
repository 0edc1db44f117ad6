import { openSync, readSync, closeSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ProjectInstructions } from '../protocol/settings';

/**
 * The repository's own instructions for coding agents: AGENTS.md at its root (the convention
 * Codex, gemini-cli, Aider and others read), or TENET.md, which wins when both are there (for what
 * a repository wants of tenet alone). They go into the system prompt, capped: Codex caps its
 * project docs at 32 KiB; tenet keeps half of that, since a small window must hold the session too.
 */
export const INSTRUCTION_FILES = ['TENET.md', 'AGENTS.md'] as const;
export const MAX_INSTRUCTION_BYTES = 16 * 1024;

/** The instructions at the root of `repo`, or undefined when it has neither file (or only an empty one). */
export function readProjectInstructions(repo: string): ProjectInstructions | undefined {
  for (const file of INSTRUCTION_FILES) {
    const path = join(repo, file);
    let bytes: number;
    try {
      const stats = statSync(path);
      if (!stats.isFile()) continue;
      bytes = stats.size;
    } catch {
      continue;
    }
    const fd = openSync(path, 'r');
    const buffer = Buffer.alloc(Math.min(bytes, MAX_INSTRUCTION_BYTES));
    try {
      readSync(fd, buffer, 0, buffer.length, 0);
    } finally {
      closeSync(fd);
    }
    // A cut in the middle of a character drops that character, not the text.
    const read = buffer
      .toString('utf8')
      .replace(/\uFFFD+$/, '')
      .trim();
    if (!read) continue;
    const cut = bytes > MAX_INSTRUCTION_BYTES;
    const text = cut
      ? `${read}\n\n[tenet cut ${file} here: it is ${bytes.toLocaleString('en-US')} bytes, past the ${MAX_INSTRUCTION_BYTES / 1024} KiB tenet reads]`
      : read;
    return { file, text, bytes, ...(cut ? { cut: true as const } : {}) };
  }
  return undefined;
}

/** The system prompt's section with the instructions. */
export function instructionsSection(instructions: ProjectInstructions): string {
  return `## The repository's instructions (${instructions.file})\n\nThe repository's maintainers wrote these for coding agents. Follow them where they apply to this task; the task and the tools above come first.\n\n${instructions.text}`;
}

/** `AGENTS.md, 1.2 kB`: what a run's start and the start screen say. */
export function instructionsWords(instructions: Pick<ProjectInstructions, 'file' | 'bytes' | 'cut'>): string {
  const size = instructions.bytes < 1000 ? `${instructions.bytes} B` : `${(instructions.bytes / 1000).toFixed(1)} kB`;
  return `${instructions.file}, ${size}${instructions.cut ? `, cut to ${MAX_INSTRUCTION_BYTES / 1024} KiB` : ''}`;
}
