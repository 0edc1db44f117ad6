import { readFileSync } from 'node:fs';

/**
 * A Python file's text plus how to write it back byte for byte. Files that are not valid UTF-8
 * (a latin-1 coding cookie, stray bytes) are read as latin-1, which maps every byte to one
 * character, so editing one function never corrupts the rest of the file.
 */
export interface SourceText {
  text: string;
  encoding: 'utf8' | 'latin1';
}

export function decodeSource(bytes: Buffer): SourceText {
  const text = bytes.toString('utf8');
  if (!text.includes('\uFFFD') || Buffer.from(text, 'utf8').equals(bytes)) return { text, encoding: 'utf8' };
  return { text: bytes.toString('latin1'), encoding: 'latin1' };
}

export function readSource(path: string): SourceText {
  return decodeSource(readFileSync(path));
}

export function encodeSource(source: SourceText): Buffer {
  return Buffer.from(source.text, source.encoding);
}
