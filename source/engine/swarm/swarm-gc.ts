import type Docker from 'dockerode';
import { connectDocker } from '../sandbox/docker/connect';
import { ownerRunning } from '../sandbox/docker/gc';
import { LABELS } from '../sandbox/docker/names';

export interface LeftSwarmObject {
  kind: 'service' | 'secret' | 'image';
  name: string;
  owner: string;
  /** Why it stays: the tenet that runs it is still running on this machine. */
  inUse: boolean;
}

const labelsOf = (object: { Spec?: { Labels?: Record<string, string> }; Labels?: Record<string, string> | null }) =>
  object.Spec?.Labels ?? object.Labels ?? {};

/** Tries again while Docker says the object is still in use (a secret or image until the service's containers are gone). */
async function removeSoon(remove: () => Promise<unknown>): Promise<void> {
  for (let i = 0; ; i++) {
    try {
      await remove();
      return;
    } catch (error) {
      const status = (error as { statusCode?: number }).statusCode;
      if (status === 404) return;
      if (i >= 20) throw error;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

/**
 * What `bench run --on swarm` runs killed outright left on the swarm (found by label): their task
 * services, the key's secret, the per-run image. Those of a run still going on this machine stay
 * unless `all`. An engine in no swarm has no services or secrets; its images are still looked at.
 */
export async function collectSwarmGarbage(options: {
  host?: string;
  all?: boolean;
  dryRun?: boolean;
}): Promise<{ removed: LeftSwarmObject[]; kept: LeftSwarmObject[] }> {
  const { docker } = await connectDocker(options.host);
  const filters = JSON.stringify({ label: [`${LABELS.managed}=true`, LABELS.swarmRun] });
  const info = (await docker.info()) as { Swarm?: { LocalNodeState?: string; ControlAvailable?: boolean } };
  const manager = info.Swarm?.LocalNodeState === 'active' && !!info.Swarm.ControlAvailable;
  const found: { object: LeftSwarmObject; remove: () => Promise<unknown> }[] = [];
  const add = (
    kind: LeftSwarmObject['kind'],
    name: string,
    labels: Record<string, string>,
    remove: () => Promise<unknown>,
  ) => {
    const owner = labels[LABELS.owner] ?? '';
    found.push({ object: { kind, name, owner, inUse: ownerRunning(owner) }, remove });
  };
  if (manager) {
    for (const s of (await docker.listServices({ filters })) as {
      ID: string;
      Spec: { Name: string; Labels?: Record<string, string> };
    }[])
      add('service', s.Spec.Name, labelsOf(s), () => docker.getService(s.ID).remove());
    for (const s of (await docker.listSecrets({ filters })) as {
      ID: string;
      Spec: { Name: string; Labels?: Record<string, string> };
    }[])
      add('secret', s.Spec.Name, labelsOf(s), () => docker.getSecret(s.ID).remove());
  }
  for (const image of (await docker.listImages({ filters })) as Docker.ImageInfo[])
    add('image', image.RepoTags?.[0] ?? image.Id, image.Labels ?? {}, () => docker.getImage(image.Id).remove());
  const removed: LeftSwarmObject[] = [];
  const kept: LeftSwarmObject[] = [];
  // Services first: their containers hold the secrets and images.
  for (const { object, remove } of found) {
    if (object.inUse && !options.all) {
      kept.push(object);
      continue;
    }
    if (!options.dryRun) await removeSoon(remove);
    removed.push(object);
  }
  return { removed, kept };
}
