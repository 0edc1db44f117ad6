import { hostname } from 'node:os';
import { pidExists } from '../../util/processes';
import { connectDocker } from './connect';
import { type StaleHelpersImage, staleHelpersImages } from './helpers-image';
import { LABELS } from './names';

export interface LeftContainer {
  id: string;
  name: string;
  session: string;
  owner: string;
  state: string;
  /** Why it stays: its tenet process is still running on this machine. */
  inUse: boolean;
}

/** Whether the tenet named by an owner label (`host:pid`) still runs on this machine (one on another cannot be checked). */
export function ownerRunning(owner: string, here = hostname()): boolean {
  const [ownerHost, ownerPid] = [
    owner.slice(0, owner.lastIndexOf(':')),
    Number(owner.slice(owner.lastIndexOf(':') + 1)),
  ];
  return ownerHost === here && Number.isInteger(ownerPid) && ownerPid !== process.pid && pidExists(ownerPid);
}

/**
 * Containers tenet made (found by label) whose session is over: their tenet process was killed
 * before it could remove them (SIGKILL, a power cut). Containers of a tenet still running on this
 * machine are kept unless `all`; those started from other machines cannot be checked and go.
 * Then the images with tenet's helpers that no run will start from again (see helpers-image.ts);
 * one a container still uses stays.
 */
export async function collectGarbage(options: {
  host?: string;
  all?: boolean;
  dryRun?: boolean;
}): Promise<{ removed: LeftContainer[]; kept: LeftContainer[]; images: StaleHelpersImage[] }> {
  const { docker } = await connectDocker(options.host);
  const listed = await docker.listContainers({
    all: true,
    filters: JSON.stringify({ label: [`${LABELS.managed}=true`] }),
  });
  const here = hostname();
  const removed: LeftContainer[] = [];
  const kept: LeftContainer[] = [];
  for (const info of listed) {
    const owner = info.Labels[LABELS.owner] ?? '';
    const inUse = ownerRunning(owner, here);
    const entry: LeftContainer = {
      id: info.Id,
      name: (info.Names[0] ?? '').replace(/^\//, ''),
      session: info.Labels[LABELS.session] ?? '',
      owner,
      state: info.State,
      inUse,
    };
    if (inUse && !options.all) {
      kept.push(entry);
      continue;
    }
    if (!options.dryRun) await docker.getContainer(info.Id).remove({ force: true, v: true });
    removed.push(entry);
  }
  const images: StaleHelpersImage[] = [];
  for (const image of await staleHelpersImages(docker)) {
    if (!options.dryRun) {
      const gone = await docker
        .getImage(image.id)
        .remove()
        .then(() => true)
        .catch((error: { statusCode?: number }) => error.statusCode === 404);
      if (!gone) continue; // a container starts from it still
    }
    images.push(image);
  }
  return { removed, kept, images };
}
