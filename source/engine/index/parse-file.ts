import { createHash } from 'node:crypto';
import { readInsideSync } from '../workspace/inside';
import { parsePython } from '../python/parser';
import { decodeSource } from '../python/source-text';
import { extractFile } from './extract';
import type { FileIndex } from './types';

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
