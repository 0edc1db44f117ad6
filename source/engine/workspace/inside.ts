import {
  closeSync,
  constants,
  existsSync,
  fchmodSync,
  fstatSync,
  ftruncateSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  unlinkSync,
  writeSync,
  type Dirent,
  type Stats,
} from 'node:fs';
import { basename, dirname, relative, resolve, sep } from 'node:path';
import { TenetError } from '../errors';

/**
 * Reading and writing a workspace without ever following a link out of it, checked at the moment
 * of use. Code in a sandbox can change the workspace under tenet's feet (with `--mount` a
 * container writes the very folder tenet reads): a file swapped for a symbolic link to a host
 * file, a folder swapped for a link to `/`. A path checked and then opened could lead elsewhere by
 * the time it is opened, so the check is made on what was opened: the real location of the open
 * file descriptor (`/proc/self/fd/N`) must be inside the workspace's real root, or nothing is read
 * or written. New files are created through a descriptor of their verified folder
 * (`/proc/self/fd/DIR/name`, the equivalent of openat), never through a path that could be swapped.
 * Without /proc (not Linux) the same checks use realpath, which narrows the window but cannot close it.
 */

/** A path of the workspace leads out of it (through a link), or is not what tenet can read or write. */
export class OutsideWorkspaceError extends TenetError {
  constructor(
    readonly rel: string,
    readonly where: string,
  ) {
    super(
      `${rel || '.'} leads outside the workspace (to ${where}): tenet never follows a link out of it.`,
      undefined,
      1,
    );
    this.name = 'OutsideWorkspaceError';
  }
}

const PROC_FD = existsSync('/proc/self/fd');
const READ = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY;
const DIRECTORY = constants.O_RDONLY | (constants.O_DIRECTORY ?? 0);
const realRoots = new Map<string, string>();

/** The workspace root with every link in it resolved (the temp folder itself may be one, as /tmp on macOS). */
export function realRoot(root: string): string {
  let real = realRoots.get(root);
  if (!real) {
    real = realpathSync(root);
    realRoots.set(root, real);
  }
  return real;
}

export function isInside(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** The path of `rel` under root, refusing `..` and absolute paths that leave it on paper already. */
function lexical(root: string, rel: string): string {
  const path = resolve(root, rel);
  if (!isInside(resolve(root), path)) throw new OutsideWorkspaceError(rel, path);
  return path;
}

/** Where an open descriptor really is. */
function whereIs(fd: number, path: string): string {
  if (PROC_FD) return readlinkSync(`/proc/self/fd/${fd}`);
  return realpathSync(path);
}

/** A path through a verified folder descriptor: resolved from that folder, whatever its path now leads to. */
const through = (dirFd: number, realDir: string, name: string) =>
  PROC_FD ? `/proc/self/fd/${dirFd}/${name}` : `${realDir}${sep}${name}`;

/** The real path of what `fd` opened, or OutsideWorkspaceError; on any error the descriptor is closed. */
function verified(root: string, rel: string, fd: number, path: string): string {
  let where: string;
  try {
    where = whereIs(fd, path);
    if (!isInside(realRoot(root), where)) throw new OutsideWorkspaceError(rel, where);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  return where;
}

/** An open descriptor of a file or folder of the workspace (links followed only while they stay inside). */
export interface InsideEntry {
  fd: number;
  stats: Stats;
  /** Its real path. */
  where: string;
}

/** Opens `rel` for reading; the caller closes `fd`. Throws OutsideWorkspaceError when it leads out, ENOENT when missing. */
export function openInside(root: string, rel: string): InsideEntry {
  const path = lexical(root, rel);
  const fd = openSync(path, READ);
  const where = verified(root, rel, fd, path);
  return { fd, stats: fstatSync(fd), where };
}

/** A regular file of the workspace, read whole (a fifo or device is refused, so a read never blocks). */
export function readInsideSync(root: string, rel: string): Buffer {
  const { fd, stats } = openInside(root, rel);
  try {
    if (!stats.isFile())
      throw Object.assign(new Error(`${rel} is not a regular file`), {
        code: stats.isDirectory() ? 'EISDIR' : 'EINVAL',
        path: resolve(root, rel),
      });
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

export async function readInside(root: string, rel: string): Promise<Buffer> {
  return readInsideSync(root, rel);
}

/** A folder's descriptor, verified inside; the caller closes it. */
function openDirInside(root: string, rel: string): { fd: number; where: string } {
  const path = lexical(root, rel);
  const fd = openSync(path, DIRECTORY);
  return { fd, where: verified(root, rel, fd, path) };
}

/** A folder's entries (links listed as links, never followed), after checking the folder is inside. */
export function listInside(root: string, rel: string): { entries: Dirent[]; where: string } {
  const { fd, where } = openDirInside(root, rel);
  try {
    return { entries: readdirSync(PROC_FD ? `/proc/self/fd/${fd}` : where, { withFileTypes: true }), where };
  } finally {
    closeSync(fd);
  }
}

/** Creates a folder and its parents, each made and entered through its verified parent. */
export function mkdirInside(root: string, rel: string): void {
  const parts = rel.split(/[\\/]+/).filter((p) => p && p !== '.');
  let { fd, where } = openDirInside(root, '');
  for (const [i, part] of parts.entries()) {
    let next: number;
    const path = through(fd, where, part);
    try {
      try {
        mkdirSync(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      next = openSync(path, DIRECTORY);
    } finally {
      closeSync(fd);
    }
    // verified() closes `next` itself when it refuses it.
    where = verified(root, parts.slice(0, i + 1).join('/'), next, path);
    fd = next;
  }
  closeSync(fd);
}

function writeAll(fd: number, data: Buffer): void {
  for (let at = 0; at < data.length; ) at += writeSync(fd, data, at, data.length - at);
}

export interface WriteOptions {
  /** File mode for a new file, and set on an existing one (e.g. 0o755 for a script). */
  mode?: number;
  /**
   * The name becomes a file of its own: a link at it, even one to another file of the workspace,
   * is replaced, not written through (the other name keeps its content).
   */
  ownFile?: boolean;
}

/**
 * Writes a file of the workspace. An existing regular file inside the workspace is rewritten in
 * place; anything else at that name (a link leading out, a fifo, a dangling link) is removed as an
 * entry of its folder and a new file is made there: the content is never written through a link
 * out. Missing folders are created. A folder on the way that leads out is refused.
 */
export function writeInsideSync(root: string, rel: string, content: string | Buffer, options: WriteOptions = {}): void {
  const data = typeof content === 'string' ? Buffer.from(content) : content;
  const path = lexical(root, rel);
  let fd: number | undefined;
  try {
    fd = openSync(
      path,
      constants.O_WRONLY | constants.O_NONBLOCK | constants.O_NOCTTY | (options.ownFile ? constants.O_NOFOLLOW : 0),
    );
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Missing, a dangling or looping link (any link, for a file of its own), a fifo nobody reads: made anew below.
    if (code !== 'ENOENT' && code !== 'ELOOP' && code !== 'ENXIO') throw error;
  }
  if (fd !== undefined) {
    let inside = false;
    try {
      const stats = fstatSync(fd);
      inside = isInside(realRoot(root), whereIs(fd, path)) && stats.isFile();
      if (inside) {
        ftruncateSync(fd, 0);
        writeAll(fd, data);
        if (options.mode !== undefined) fchmodSync(fd, options.mode);
        return;
      }
    } finally {
      closeSync(fd);
    }
  }
  mkdirInside(root, dirname(relative(resolve(root), path)));
  const dir = openDirInside(root, dirname(relative(resolve(root), path)));
  try {
    const entry = through(dir.fd, dir.where, basename(path));
    const existing = lstatSync(entry, { throwIfNoEntry: false });
    if (existing?.isDirectory()) throw Object.assign(new Error(`${rel} is a folder`), { code: 'EISDIR', path });
    if (existing) unlinkSync(entry);
    const created = openSync(
      entry,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      options.mode ?? 0o644,
    );
    try {
      writeAll(created, data);
      if (options.mode !== undefined) fchmodSync(created, options.mode);
    } finally {
      closeSync(created);
    }
  } finally {
    closeSync(dir.fd);
  }
}

export async function writeInside(
  root: string,
  rel: string,
  content: string | Buffer,
  options: WriteOptions = {},
): Promise<void> {
  writeInsideSync(root, rel, content, options);
}

/** Removes a file (the entry: a link is removed, not what it points to) from a verified folder. */
export function unlinkInside(root: string, rel: string): void {
  const dir = openDirInside(root, dirname(rel));
  try {
    unlinkSync(through(dir.fd, dir.where, basename(rel)));
  } finally {
    closeSync(dir.fd);
  }
}
