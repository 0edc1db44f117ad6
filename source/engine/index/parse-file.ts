import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
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

export function indexFile(path: string, absolute: string, hash?: string): Promise<FileIndex> {
  const bytes = readFileSync(absolute);
  return indexSource(path, bytes, hash ?? hashBytes(bytes));
}
