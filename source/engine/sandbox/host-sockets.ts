import { execFile, spawnSync } from 'node:child_process';
import { TenetError } from '../errors';

/**
 * Unix sockets of this machine under a folder a confined process is shown. A read-only bind does
 * not stop `connect()` on a socket, so each one found is covered (see allowedView). Looked for once
 * per tenet process and folder: sockets live in /run, /tmp and home folders (a rootless Docker's
 * `~/.docker/run/docker.sock`, gpg's and ssh's agents), which are shown only when named on purpose.
 */
const found = new Map<string, { sockets: readonly string[]; problem?: string }>();
const pending = new Map<string, Promise<void>>();

const FIND_TIMEOUT_MS = 20_000;
const FIND_ARGS = (root: string) => [root, '-type', 's', '-print0'];

/** What find answered: the sockets, or why the folder could not be looked through (then it is not shown). */
function answer(stdout: string | undefined, timedOut: boolean): { sockets: readonly string[]; problem?: string } {
  const sockets = (stdout ?? '').split('\0').filter(Boolean);
  return timedOut
    ? { sockets, problem: `looking through it for sockets took over ${FIND_TIMEOUT_MS / 1000} s` }
    : { sockets };
}

/** Looks under `roots` without blocking, so that socketsUnder finds the answer ready. */
export function lookForSockets(roots: readonly string[]): Promise<void> {
  return Promise.all(
    roots
      .filter((root) => !found.has(root))
      .map((root) => {
        let looking = pending.get(root);
        if (!looking) {
          looking = new Promise<void>((done) => {
            execFile(
              'find',
              FIND_ARGS(root),
              { encoding: 'utf8', timeout: FIND_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 },
              (error, stdout) => {
                // An unreadable part of the tree prints errors; what find did list still counts.
                found.set(root, answer(stdout, (error as { killed?: boolean } | null)?.killed === true));
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
 * The sockets under each root (looked for now where lookForSockets has not answered yet). A root
 * that could not be looked through is refused: shown, it might show a socket.
 */
export function socketsUnder(roots: readonly string[]): string[] {
  const sockets: string[] = [];
  for (const root of roots) {
    let under = found.get(root);
    if (!under) {
      const result = spawnSync('find', FIND_ARGS(root), {
        encoding: 'utf8',
        timeout: FIND_TIMEOUT_MS,
        maxBuffer: 64 * 1024 * 1024,
      });
      under = answer(result.stdout, result.error !== undefined && result.signal !== null);
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
