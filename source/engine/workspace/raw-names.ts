import { readdirSync, type Dirent } from 'node:fs';
import { sep } from 'node:path';

/**
 * File names are bytes on Linux, not text: a repository may hold one that is not UTF-8 (`caf\xe9.txt`
 * written by an old tool). Read as text, Node turns its bytes into U+FFFD, and the name then leads
 * nowhere (`lstat` says it does not exist). The walks that must see every entry (the copy, the
 * checkout's fingerprint) read names as bytes; a path stays a string while every name on it is
 * UTF-8, and becomes a Buffer below the first that is not.
 */
export type RawPath = string | Buffer;

/** Whether the name's bytes are UTF-8 that decodes and encodes back to the same bytes. */
function isText(raw: Buffer): boolean {
  return Buffer.from(raw.toString('utf8')).equals(raw);
}

/** A name as text: itself where it is UTF-8, else each byte that is not spelled `\xNN` (a lossless key, readable in a message). */
export function nameText(raw: Buffer): string {
  if (isText(raw)) return raw.toString('utf8');
  let text = '';
  for (let at = 0; at < raw.length; ) {
    // The longest run that decodes as it is, then one byte escaped.
    let end = raw.length;
    while (end > at && !isText(raw.subarray(at, end))) end--;
    if (end > at) {
      text += raw.subarray(at, end).toString('utf8');
      at = end;
    } else {
      text += `\\x${raw[at]!.toString(16).padStart(2, '0')}`;
      at++;
    }
  }
  return text;
}

/** The path of `name` in `dir`: a string where both are text, else bytes. */
export function childPath(dir: RawPath, name: Buffer | string): RawPath {
  const raw = typeof name === 'string' ? Buffer.from(name) : name;
  if (typeof dir === 'string' && isText(raw))
    return dir.endsWith(sep) ? dir + raw.toString('utf8') : `${dir}${sep}${raw.toString('utf8')}`;
  const base = typeof dir === 'string' ? Buffer.from(dir) : dir;
  return Buffer.concat([base, base[base.length - 1] === sep.charCodeAt(0) ? Buffer.alloc(0) : Buffer.from(sep), raw]);
}

/** A folder's entries with their names as bytes. */
export function rawEntries(dir: RawPath): Dirent<Buffer>[] {
  return readdirSync(dir, { withFileTypes: true, encoding: 'buffer' });
}
