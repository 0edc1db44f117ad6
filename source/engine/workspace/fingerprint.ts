import { lstatSync, readlinkSync } from 'node:fs';
import { NOT_COPIED } from './copy-tree';
import { childPath, nameText, rawEntries, type RawPath } from './raw-names';

/** Every entry of a folder a workspace copy takes (see copyTree), by its path, with what identifies its state. */
export type TreeFingerprint = Map<string, string>;

/**
 * What the folder holds now, from the entries' metadata alone: type, size, mode, inode, and the
 * modification and change times to the nanosecond. A change time cannot be set back, so a file
 * written and its mtime restored still shows. Nothing is opened or read: a FIFO, a socket or a
 * device is an entry like any other, and a listing never waits on one. The folders copyTree
 * leaves out (version control, caches, virtual environments) are left out here too, and so are the
 * paths in `skip` (tenet's own folders, should they be inside). Throws when a folder cannot be
 * listed: whoever asked must then say the check could not be done.
 */
export function fingerprintTree(root: string, skip: ReadonlySet<string> = new Set()): TreeFingerprint {
  const found: TreeFingerprint = new Map();
  // Names as bytes: one that is not UTF-8 is an entry too, keyed by its escaped spelling (see raw-names.ts).
  const walk = (dir: RawPath, rel: string): void => {
    for (const entry of rawEntries(dir)) {
      const path = childPath(dir, entry.name);
      if (typeof path === 'string' && skip.has(path)) continue;
      const name = nameText(entry.name);
      const childRel = rel ? `${rel}/${name}` : name;
      const info = lstatSync(path, { bigint: true });
      if (
        info.isDirectory() &&
        (NOT_COPIED.has(name) || lstatSync(childPath(path, 'pyvenv.cfg'), { throwIfNoEntry: false }))
      )
        continue;
      const link = info.isSymbolicLink() ? ` ${readlinkSync(path, { encoding: 'buffer' }).toString('hex')}` : '';
      // A folder's times change with its entries (an editor's save by rename), which are looked at themselves.
      found.set(
        childRel,
        info.isDirectory()
          ? `${info.mode}:${info.ino}`
          : `${info.mode}:${info.size}:${info.ino}:${info.mtimeNs}:${info.ctimeNs}${link}`,
      );
      if (info.isDirectory()) walk(path, childRel);
    }
  };
  walk(root, '');
  return found;
}

/** The paths whose entry differs between two fingerprints: changed, made or removed (sorted). */
export function changedPaths(before: TreeFingerprint, after: TreeFingerprint): string[] {
  const changed = new Set<string>();
  for (const [rel, state] of before) if (after.get(rel) !== state) changed.add(rel);
  for (const rel of after.keys()) if (!before.has(rel)) changed.add(rel);
  return [...changed].sort();
}
