import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * A checksum of every entry under a folder, links not followed: path → sha256 of a file's bytes,
 * `link → TARGET` for a link, `dir` for a folder. Two equal snapshots mean nothing under it was
 * written, created, removed or relinked (compare with toEqual for a readable difference). Folders
 * in `skip` (absolute paths, e.g. a workspace inside the tree) are left out.
 */
export function snapshot(root: string, skip: string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (skip.includes(path)) continue;
      const rel = relative(root, path);
      const info = lstatSync(path);
      if (info.isSymbolicLink()) out[rel] = `link → ${readlinkSync(path)}`;
      else if (info.isDirectory()) {
        out[rel] = 'dir';
        walk(path);
      } else if (info.isFile()) out[rel] = createHash('sha256').update(readFileSync(path)).digest('hex');
      else out[rel] = 'special';
    }
  };
  walk(root);
  return out;
}
