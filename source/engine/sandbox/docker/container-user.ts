import type Docker from 'dockerode';
import type { Owner } from './archive';
import { LABELS } from './names';

/**
 * The user a container's processes run as when tenet copies the workspace in: a user of its own
 * per container, never root and never one another container runs as.
 *
 * The process limit that keeps tenet's own execs possible under a fork bomb (RLIMIT_NPROC, see
 * docker-sandbox.ts) counts the processes of a user id across the whole machine, not per
 * container: with one user for every container, a fork bomb in one used up the count of all the
 * others (two sessions at once, `bench run --parallel` in Docker), and their tests could not fork.
 *
 * The ids lie between Debian's highest ordinary user (60000) and systemd's dynamic users (61184):
 * no login is given one there, and they stay within the 65,536 ids a rootless engine or a
 * user-namespace remap gives its containers.
 */
export const CONTAINER_UIDS = { first: 60_001, last: 61_183 } as const;

/** The name the container's user goes by: it has no entry in the image's /etc/passwd. */
export const CONTAINER_USER_NAME = 'tenet';

/** A user id in CONTAINER_UIDS that none of `taken` has (taken at random when every one is). */
export function pickContainerUid(taken: ReadonlySet<number>, random: () => number = Math.random): number {
  const count = CONTAINER_UIDS.last - CONTAINER_UIDS.first + 1;
  const start = Math.floor(random() * count);
  for (let step = 0; step < count; step++) {
    const uid = CONTAINER_UIDS.first + ((start + step) % count);
    if (!taken.has(uid)) return uid;
  }
  return CONTAINER_UIDS.first + start;
}

/** The user ids tenet's containers on this engine run as (from their label), any session's. */
export async function takenContainerUids(docker: Docker): Promise<Set<number>> {
  const listed = await docker.listContainers({ all: true, filters: JSON.stringify({ label: [LABELS.uid] }) });
  return new Set(listed.map((c) => Number(c.Labels?.[LABELS.uid])).filter(Number.isInteger));
}

/** A new container's own user, as its files are owned (group: the same number). */
export async function newContainerOwner(docker: Docker): Promise<Owner> {
  const uid = pickContainerUid(await takenContainerUids(docker));
  return { uid, gid: uid };
}
