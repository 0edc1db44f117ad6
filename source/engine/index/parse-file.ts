import { createHash } from 'node:crypto';
import { readInsideSync } from '../workspace/inside';
import { parsePython } from '../python-source/parser';
import { decodeSource } from '../python-source/source-text';
import { extractFile } from './extract';
import type { FileIndex } from './types';

/**
 * Past this size a module is left out of the index (one warning names it): tree-sitter's wasm
 * takes seconds per megabyte of short statements and aborts, out of memory, on a generated module
 * of millions of lines. Hand-written Python stays far below (the largest in a site-packages of 17,000
 * files here: 4 MB, moto's table of AWS policies). The agent still reads such a file with its shell.
 */
export const MAX_INDEXED_BYTES = 5_000_000;

/** A file left out of the index, and why (in words that follow its name). */
export interface SkippedFile {
  path: string;
  reason: string;
}

export const tooLargeToIndex = (path: string, size: number): SkippedFile | undefined =>
  size > MAX_INDEXED_BYTES
    ? {
        path,
        reason: `${(size / 1e6).toFixed(1)} MB, past the index's limit of ${MAX_INDEXED_BYTES / 1e6} MB`,
      }
    : undefined;

/** A failure to parse a file (a wasm abort, a file that could not be read, a worker that died), as a reason. */
export const parseFailure = (path: string, error: unknown): SkippedFile => ({
  path,
  reason: `it could not be parsed (${String(error).split('\n')[0]!.slice(0, 200)})`,
});

/** What a skipped file's warning says. */
export const skippedWords = ({ path, reason }: SkippedFile): string =>
  `${path} is left out of the index: ${reason}; the agent can still read it with its shell`;

export function hashBytes(bytes: Buffer): string {
  return createHash('sha1').update(bytes).digest('hex');
}

function countLines(text: string): number {
  let lines = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
  return text.endsWith('\n') ? lines - 1 : lines;
}

/** Parses one module's bytes into its index entry (non-UTF-8 files are read as latin-1). */
export async function indexSource(path: string, bytes: Buffer, hash = hashBytes(bytes)): Promise<FileIndex> {
  const { text } = decodeSource(bytes);
  const tree = await parsePython(text);
  try {
    return extractFile(tree, text, path, hash, countLines(text));
  } finally {
    tree.delete();
  }
}

/** `absolute` is `path` under the workspace root; read without following a link out of it. */
export function indexFile(path: string, absolute: string, hash?: string): Promise<FileIndex> {
  const bytes = readInsideSync(absolute.slice(0, absolute.length - path.length - 1) || '/', path);
  return indexSource(path, bytes, hash ?? hashBytes(bytes));
}
