import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { stateDir } from '../util/state-dir';

/**
 * What a look through a large folder for Unix sockets found, kept between runs (see
 * host-sockets.ts). An interpreter's installation is the folder every confined process is shown,
 * and looking through pyenv's (60,000 entries, 8,700 folders) cost `find` a tenth of a CPU-second
 * in every tenet process. A socket can only appear in a folder by an entry added to it, which
 * changes that folder's ctime (a change time no process can set back), so the record holds while
 * every folder it lists has the device, inode and ctime it had when it was looked through: checking
 * that is an lstat a folder (GNU stat over the list), a quarter of the look's CPU. Anything else
 * looks again.
 *
 * The record lives in tenet's state folder, which no sandbox is shown. A folder changed in the
 * clock tick of its look could keep its ctime and hide the change: a look that saw such a folder
 * (changed in the last seconds) is not kept.
 */

/** Smaller folders are looked through every time: a record would save nothing. */
const MIN_FOLDERS = 1_000;
/** Records kept: the folders looked through last. */
const MAX_RECORDS = 16;
/** A folder changed this recently when it was looked through may yet change within the same ctime. */
const SETTLED_MS = 2_000;
const VERSION = 3;

/** What a walk of a folder's tree (find's look, stat's check of a record) may take and print. */
export const WALK_LIMITS = { timeoutMs: 20_000, maxBuffer: 64 * 1024 * 1024 } as const;

export interface FolderStamp {
  /** Relative to the root looked through ('' for the root itself). */
  path: string;
  /** `dev:ino:ctime` (seconds and nanoseconds). */
  stamp: string;
  ctimeMs: number;
}

interface SocketRecord {
  version: number;
  root: string;
  folders: string[];
  /** Fingerprint of the folders' stamps, in the order of `folders`. */
  stamps: string;
  sockets: string[];
}

const recordsDir = (env: NodeJS.ProcessEnv) => join(stateDir(env), 'socket-records');
const recordFile = (root: string, env: NodeJS.ProcessEnv) =>
  join(recordsDir(env), `${createHash('sha256').update(root).digest('hex').slice(0, 32)}.json`);

const fingerprint = (stamps: Iterable<string>) => {
  const hash = createHash('sha256');
  for (const stamp of stamps) hash.update(`${stamp}\n`);
  return hash.digest('hex');
};

/**
 * The stamps of `folders` (relative to `root`) now, in their order, in folderStamp's form; undefined
 * where one is gone or stat did not answer (a stat that is not GNU's). GNU stat over the list: an
 * lstat a folder in C, 0.03 CPU-s for pyenv's 8,700 folders, against 0.11 for find's look and 0.07
 * for as many lstatSync calls in a fresh Node process.
 */
function stampsNow(root: string, folders: readonly string[]): string[] | undefined {
  // One stat for up to a megabyte of paths (xargs's default is 128 KB a command: six for pyenv's; a
  // system that allows less gets its own most).
  const run = spawnSync('xargs', ['-0', '-s', '1048576', 'stat', '--printf', '%d:%i %.9Z\\0', '--'], {
    cwd: root,
    input: folders.map((folder) => `${folder || '.'}\0`).join(''),
    encoding: 'utf8',
    maxBuffer: WALK_LIMITS.maxBuffer,
    timeout: WALK_LIMITS.timeoutMs,
  });
  if (run.status !== 0 || typeof run.stdout !== 'string') return undefined;
  const fields = run.stdout.split('\0');
  fields.pop();
  if (fields.length !== folders.length) return undefined;
  const stamps: string[] = [];
  for (const field of fields) {
    const stamp = stampOf(field);
    if (!stamp) return undefined;
    stamps.push(stamp);
  }
  return stamps;
}

/** The sockets under `root` as last looked for, if no folder under it changed since; else undefined. */
export function recalledSockets(root: string, env: NodeJS.ProcessEnv = process.env): string[] | undefined {
  let record: SocketRecord;
  try {
    record = JSON.parse(readFileSync(recordFile(root, env), 'utf8')) as SocketRecord;
  } catch {
    return undefined;
  }
  const strings = (list: unknown): list is string[] =>
    Array.isArray(list) && list.every((item) => typeof item === 'string');
  if (record.version !== VERSION || record.root !== root || !strings(record.folders) || !strings(record.sockets))
    return undefined;
  const stamps = stampsNow(root, record.folders);
  return stamps && fingerprint(stamps) === record.stamps ? record.sockets : undefined;
}

/**
 * Keeps what a look through `root` found (its folders' stamps, taken before each was read, and the
 * sockets), when the root is large enough for a record to pay and every folder had settled.
 */
export function keepSockets(
  root: string,
  folders: readonly FolderStamp[],
  sockets: readonly string[],
  lookedAt: number,
  env: NodeJS.ProcessEnv = process.env,
): void {
  if (folders.length < MIN_FOLDERS) return;
  if (folders.some((folder) => folder.ctimeMs > lookedAt - SETTLED_MS)) return;
  const record: SocketRecord = {
    version: VERSION,
    root,
    folders: folders.map((folder) => folder.path),
    stamps: fingerprint(folders.map((folder) => folder.stamp)),
    sockets: [...sockets],
  };
  const file = recordFile(root, env);
  try {
    mkdirSync(recordsDir(env), { recursive: true, mode: 0o700 });
    // Whole or not at all: another tenet may read it at the same moment.
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(record));
    renameSync(temporary, file);
    pruneRecords(env);
  } catch {
    // A state folder that cannot be written costs the next run a look, nothing more.
  }
}

function pruneRecords(env: NodeJS.ProcessEnv): void {
  const dir = recordsDir(env);
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => ({ path: join(dir, name), at: statSync(join(dir, name)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const stale of files.slice(MAX_RECORDS)) rmSync(stale.path, { force: true });
}

/** `dev:ino:seconds.nanoseconds` from `<dev>:<ino> <seconds>.<fraction>` (find's %D:%i %C@, stat's %d:%i %.9Z). */
function stampOf(fields: string): string | undefined {
  const match = /^(\d+):(\d+) (\d+)\.(\d{9})\d*$/.exec(fields);
  return match ? `${match[1]}:${match[2]}:${match[3]}.${match[4]}` : undefined;
}

/**
 * One folder of find's output (see host-sockets.ts: `-printf 'D%D:%i %C@\0%p\0'`): its stamp in the
 * form recalledSockets takes, or undefined where find's figures are not what that needs.
 */
export function folderStamp(root: string, fields: string, path: string): FolderStamp | undefined {
  const stamp = stampOf(fields);
  if (!stamp) return undefined;
  const ctimeMs = Number(stamp.slice(stamp.lastIndexOf(':') + 1)) * 1e3;
  return { path: relative(root, path), stamp, ctimeMs };
}
