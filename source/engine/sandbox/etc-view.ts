import { createHash } from 'node:crypto';
import {
  copyFileSync,
  cpSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { cacheRoot } from '../util/cache-dir';

/**
 * The allowed part of /etc as one folder, bound over /etc in one bwrap argument. Bound entry by
 * entry, the 35 or so files cost bwrap two mount calls each: 33.7 ms an exec against 30.4 ms with
 * a read-only `/` (perf/confinement.ts). The folder is a copy, made once and found again by a key
 * of what it copies (each entry's inode, size and time), so a changed `/etc/resolv.conf` makes a
 * new one at the next exec. It lives in tenet's cache folder (no run leaves anything in the
 * temporary folder), private to this user (0700); confined processes see it only as /etc.
 */

/** How a path appears to a confined process. */
export type Shown =
  | { kind: 'copy' }
  /** A link that stays a link (`localtime` → the zone file, `mtab` → /proc). */
  | { kind: 'link'; target: string }
  /** A link whose target is not shown (`resolv.conf` → /run/…): the file it leads to. */
  | { kind: 'file'; from: string };

/** An entry of /etc (`ssl/certs`), as it appears. */
export type EtcEntry = Shown & { name: string };

const DAY_MS = 24 * 60 * 60 * 1000;

/** Copies of /etc made more than a day ago for what /etc was then (a resolv.conf since rewritten): gone. */
function pruneOlder(base: string, keep: string): void {
  for (const name of readdirSync(base)) {
    const path = join(base, name);
    if (path === keep || !name.startsWith('tenet-etc-')) continue;
    try {
      if (Date.now() - lstatSync(path).mtimeMs > DAY_MS) rmSync(path, { recursive: true, force: true });
    } catch {
      // another tenet pruned it first
    }
  }
}

function stamp(path: string): string {
  try {
    const info = lstatSync(path);
    return `${info.ino}:${info.size}:${info.mtimeMs}:${info.mode}`;
  } catch {
    return '-';
  }
}

function copy(entry: EtcEntry, into: string): void {
  const to = join(into, entry.name);
  mkdirSync(dirname(to), { recursive: true });
  if (entry.kind === 'link') {
    symlinkSync(entry.target, to);
    return;
  }
  const from = entry.kind === 'file' ? entry.from : `/etc/${entry.name}`;
  if (lstatSync(from).isDirectory())
    // Links inside stay links, as a bind shows them: `ssl/certs/*.pem` lead into /usr/share.
    cpSync(from, to, { recursive: true, verbatimSymlinks: true });
  else copyFileSync(from, to);
}

/** Whether `path` is a folder of this user's that no one else can write, as a staged copy is made. */
function ours(path: string): boolean {
  try {
    const info = lstatSync(path);
    return info.isDirectory() && info.uid === process.getuid?.() && (info.mode & 0o077) === 0;
  } catch {
    return false;
  }
}

/**
 * The folder that holds `entries` as /etc shows them, made if needed; undefined when it cannot be
 * made (a file that cannot be read, a full disk): the caller then binds the entries one by one.
 */
export function stagedEtc(entries: readonly EtcEntry[], base = join(cacheRoot(), 'etc')): string | undefined {
  const key = createHash('sha256');
  for (const entry of entries) {
    key.update(`${JSON.stringify(entry)}\0`);
    key.update(`${stamp(entry.kind === 'file' ? entry.from : `/etc/${entry.name}`)}\0`);
  }
  const folder = join(resolve(base), `tenet-etc-${process.getuid?.() ?? 0}-${key.digest('hex').slice(0, 16)}`);
  if (ours(folder)) return folder;
  let making: string | undefined;
  try {
    mkdirSync(base, { recursive: true });
    making = mkdtempSync(join(resolve(base), 'tenet-etc-making-'));
    for (const entry of entries) copy(entry, making);
    renameSync(making, folder);
    pruneOlder(resolve(base), folder);
    return folder;
  } catch {
    if (making) rmSync(making, { recursive: true, force: true });
    // Another tenet made the same copy at the same moment: theirs serves.
    return ours(folder) ? folder : undefined;
  }
}
