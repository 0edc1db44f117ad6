import { execFile, spawnSync } from 'node:child_process';
import { TenetError } from '../errors';
import { type FolderStamp, folderStamp, keepSockets, recalledSockets, WALK_LIMITS } from './socket-records';

/**
 * Unix sockets of this machine under a folder a confined process is shown. A read-only bind does
 * not stop `connect()` on a socket, so each one found is covered (see allowedView). Looked for once
 * per tenet process and folder: sockets live in /run, /tmp and home folders (a rootless Docker's
 * `~/.docker/run/docker.sock`, gpg's and ssh's agents), which are shown only when named on purpose.
 * What a look through a large folder found is kept between runs while no folder in it changed
 * (socket-records.ts).
 */
const found = new Map<string, { sockets: readonly string[]; problem?: string }>();
const pending = new Map<string, Promise<void>>();

const { timeoutMs: FIND_TIMEOUT_MS, maxBuffer: FIND_BUFFER } = WALK_LIMITS;
/**
 * Every folder with its device, inode and ctime, printed as find reaches it (before reading it),
 * and every socket: `D<dev>:<ino> <ctime>\0<path>\0` and `S\0<path>\0`.
 */
const FIND_ARGS = (root: string) => [
  root,
  '(',
  '-type',
  'd',
  '-printf',
  'D%D:%i %C@\\0%p\\0',
  ')',
  '-o',
  '(',
  '-type',
  's',
  '-printf',
  'S\\0%p\\0',
  ')',
];

/**
 * What find answered: the sockets, or why the folder could not be looked through (then it is not
 * shown). A whole answer (find ended well) is kept for the next run; an unreadable part of the tree
 * makes find print errors and end with 1, and what it did list still counts, but only now. A find
 * that did not run to its end (stopped at the time limit, its answer past the buffer, not started)
 * answered nothing: what it printed before is not all there is.
 */
function answer(
  root: string,
  look: { stdout: string | undefined; unfinished: string | undefined; whole: boolean; at: number },
): { sockets: readonly string[]; problem?: string } {
  const { stdout, unfinished, whole, at } = look;
  if (unfinished) return { sockets: [], problem: unfinished };
  const fields = (stdout ?? '').split('\0');
  const sockets: string[] = [];
  const folders: FolderStamp[] = [];
  let stamped = true;
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const [kind, path] = [fields[i]!, fields[i + 1]!];
    if (kind === 'S') sockets.push(path);
    else {
      const folder = folderStamp(root, kind.slice(1), path);
      if (folder) folders.push(folder);
      else stamped = false;
    }
  }
  if (whole && stamped) keepSockets(root, folders, sockets, at);
  return { sockets };
}

/** Why find did not run to its end, from what Node says of it; undefined when it did (exit 0 or 1). */
function unfinishedWhy(error: { code?: unknown; killed?: boolean; signal?: unknown } | null | undefined) {
  if (!error || typeof error.code === 'number') return undefined;
  if (error.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER' || error.code === 'ENOBUFS')
    return `find's answer passed ${FIND_BUFFER / 1024 / 1024} MB`;
  if (error.killed || error.code === 'ETIMEDOUT')
    return `looking through it for sockets took over ${FIND_TIMEOUT_MS / 1000} s`;
  if (error.signal) return `find was stopped by ${String(error.signal)}`;
  return `find did not run (${String(error.code ?? 'no exit status')})`;
}

/** The sockets under `root` from its record, when it has one that still holds. */
function recalled(root: string): boolean {
  const sockets = recalledSockets(root);
  if (sockets) found.set(root, { sockets });
  return !!sockets;
}

/** Looks under `roots` without blocking, so that socketsUnder finds the answer ready. */
export function lookForSockets(roots: readonly string[]): Promise<void> {
  return Promise.all(
    roots
      // A root being looked through already is not recalled again (an lstat a folder).
      .filter((root) => !found.has(root) && (pending.has(root) || !recalled(root)))
      .map((root) => {
        let looking = pending.get(root);
        if (!looking) {
          looking = new Promise<void>((done) => {
            const at = Date.now();
            execFile(
              'find',
              FIND_ARGS(root),
              { encoding: 'utf8', timeout: FIND_TIMEOUT_MS, maxBuffer: FIND_BUFFER },
              (error, stdout) => {
                const unfinished = unfinishedWhy(error as { code?: unknown; killed?: boolean } | null);
                found.set(root, answer(root, { stdout, unfinished, whole: !error, at }));
                pending.delete(root);
                done();
              },
            );
          });
          pending.set(root, looking);
        }
        return looking;
      }),
  ).then(() => undefined);
}

/**
 * A look through `root` now, waited for (a record kept where it pays), whatever this process or
 * the last run found there.
 */
export function lookThrough(root: string): { sockets: readonly string[]; problem?: string } {
  const at = Date.now();
  const result = spawnSync('find', FIND_ARGS(root), {
    encoding: 'utf8',
    timeout: FIND_TIMEOUT_MS,
    maxBuffer: FIND_BUFFER,
  });
  const unfinished =
    result.error || result.status === null
      ? unfinishedWhy({ code: (result.error as NodeJS.ErrnoException | undefined)?.code, signal: result.signal })
      : undefined;
  return answer(root, { stdout: result.stdout, unfinished, whole: result.status === 0, at });
}

/**
 * The sockets under each root (looked for now where lookForSockets has not answered yet). A root
 * that could not be looked through is refused: shown, it might show a socket.
 */
export function socketsUnder(roots: readonly string[]): string[] {
  const sockets: string[] = [];
  for (const root of roots) {
    let under = found.get(root) ?? (recalled(root) ? found.get(root) : undefined);
    if (!under) {
      under = lookThrough(root);
      found.set(root, under);
    }
    if (under.problem)
      throw new TenetError(
        `tenet cannot show ${root} to the sandbox: ${under.problem}.`,
        'name a narrower folder with --read',
      );
    sockets.push(...under.sockets);
  }
  return sockets;
}
