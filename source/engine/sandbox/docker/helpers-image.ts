import type Docker from 'dockerode';
import { createHash } from 'node:crypto';
import { lstat, readdir, readFile, readlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join, posix } from 'node:path';
import { pack } from 'tar-stream';
import { pythonHelpersDir } from '../../assets';
import { HELPERS_IMAGE_REPO, LABELS } from './names';

/** One entry of the helpers' folder, read once: what is hashed is what goes into the image. */
type HelperEntry =
  | { rel: string; kind: 'dir'; mode: number; mtime: Date }
  | { rel: string; kind: 'file'; mode: number; mtime: Date; content: Buffer }
  | { rel: string; kind: 'link'; mtime: Date; target: string };

async function readHelpers(dir: string, rel = ''): Promise<HelperEntry[]> {
  const entries: HelperEntry[] = [];
  for (const entry of (await readdir(join(dir, rel), { withFileTypes: true })).sort((a, b) =>
    a.name < b.name ? -1 : 1,
  )) {
    const child = posix.join(rel, entry.name);
    const path = join(dir, child);
    const info = await lstat(path);
    if (entry.isSymbolicLink())
      entries.push({ rel: child, kind: 'link', mtime: info.mtime, target: await readlink(path) });
    else if (entry.isDirectory()) {
      entries.push({ rel: child, kind: 'dir', mode: info.mode & 0o7777, mtime: info.mtime });
      entries.push(...(await readHelpers(dir, child)));
    } else if (entry.isFile())
      entries.push({
        rel: child,
        kind: 'file',
        mode: info.mode & 0o7777,
        mtime: info.mtime,
        content: await readFile(path),
      });
  }
  return entries;
}

/**
 * What identifies a version of the helpers: every path, mode, link and byte (bytecode included),
 * not when the files were written: two checkouts of one version share an image.
 */
function helpersKey(entries: readonly HelperEntry[]): string {
  const hash = createHash('sha256');
  for (const entry of entries) {
    hash.update(`${entry.kind}\0${entry.rel}\0${entry.kind === 'link' ? entry.target : entry.mode}\0`);
    if (entry.kind === 'file') hash.update(`${entry.content.length}\0`).update(entry.content);
  }
  return hash.digest('hex').slice(0, 16);
}

/** The helpers as a tar for the root of a container: /opt/tenet/python/…, all root's. */
function helpersArchive(entries: readonly HelperEntry[], into: string): NodeJS.ReadableStream {
  const root = { uid: 0, gid: 0 };
  const archive = pack();
  const parts = into.replace(/^\//, '').split('/');
  for (let i = 1; i <= parts.length; i++)
    archive.entry({ name: `${parts.slice(0, i).join('/')}/`, type: 'directory', mode: 0o755, ...root });
  for (const entry of entries) {
    const name = `${into.replace(/^\//, '')}/${entry.rel}`;
    if (entry.kind === 'dir')
      archive.entry({ name: `${name}/`, type: 'directory', mode: entry.mode, mtime: entry.mtime, ...root });
    else if (entry.kind === 'link')
      archive.entry({ name, type: 'symlink', linkname: entry.target, mode: 0o777, mtime: entry.mtime, ...root });
    // Modification times kept: Python checks a module's bytecode against its source's.
    else archive.entry({ name, mode: entry.mode, mtime: entry.mtime, ...root }, entry.content);
  }
  archive.finalize();
  // tar-stream's streams (streamx) pipe into Node's like Node's own; dockerode only pipes them.
  return archive as unknown as NodeJS.ReadableStream;
}

/** How the tags of the images made from the image `baseId` begin: the repository, then its id's first 12 digits. */
export function helpersTagPrefix(baseId: string): string {
  return `${HELPERS_IMAGE_REPO}:${baseId.replace(/^sha256:/, '').slice(0, 12)}-`;
}

/** Images being made by this process, by tag: sandboxes that start together wait for one. */
const making = new Map<string, Promise<string>>();

/**
 * The image a sandbox's containers start from: `base` with tenet's Python helpers (the THM plugin,
 * the launcher, the judge) at `into`, made once per engine, base image and version of the helpers.
 *
 * They were copied into each container, into a volume of its own: a volume and an archive per
 * container cost the engine about 0.16 CPU-seconds of a container's 0.4. In the image they are
 * part of the root file system, which the containers get read-only: root's, and no one's to
 * rewrite (they report the outcomes of the code under test).
 *
 * Made by committing a container that never starts, into which the helpers were copied; the tag
 * names the base image's id and the helpers' hash, and appears only once the image is whole, so a
 * tenet that finds the tag uses it. Two that make it at once each commit the same content; the
 * second tag wins and the first image stays, untagged, until the engine's `docker image prune`.
 */
export async function imageWithHelpers(docker: Docker, base: Docker.ImageInspectInfo, into: string): Promise<string> {
  const entries = await readHelpers(pythonHelpersDir());
  const key = helpersKey(entries);
  const tag = `${helpersTagPrefix(base.Id)}${key}`;
  const version = tag.slice(HELPERS_IMAGE_REPO.length + 1);
  let made = making.get(tag);
  if (!made) {
    made = makeImage(docker, base, entries, into, version).finally(() => making.delete(tag));
    making.set(tag, made);
  }
  return made;
}

async function makeImage(
  docker: Docker,
  base: Docker.ImageInspectInfo,
  entries: readonly HelperEntry[],
  into: string,
  version: string,
): Promise<string> {
  const tag = `${HELPERS_IMAGE_REPO}:${version}`;
  const present = await docker
    .getImage(tag)
    .inspect()
    .then(() => true)
    .catch((error: { statusCode?: number }) => {
      if (error.statusCode === 404) return false;
      throw error;
    });
  if (present) return tag;
  // The engine refuses to create a container from an image with neither; it never runs.
  const needsCommand = !base.Config?.Cmd?.length && !base.Config?.Entrypoint?.length;
  const fill = await docker.createContainer({
    Image: base.Id,
    ...(needsCommand ? { Cmd: ['true'] } : {}),
    NetworkDisabled: true,
    // Found by `tenet gc` if this tenet is killed before it removes it.
    Labels: {
      [LABELS.managed]: 'true',
      [LABELS.session]: 'helpers-image',
      [LABELS.owner]: `${hostname()}:${process.pid}`,
      [LABELS.helpers]: version,
    },
    HostConfig: { NetworkMode: 'none' },
  });
  try {
    await fill.putArchive(helpersArchive(entries, into), { path: '/' });
    await fill.commit({ repo: HELPERS_IMAGE_REPO, tag: version });
  } finally {
    await fill.remove({ force: true, v: true }).catch(() => undefined);
  }
  return tag;
}

/** An image with tenet's helpers in it that no run will start from again. */
export interface StaleHelpersImage {
  id: string;
  name: string;
  reason: string;
}

/**
 * Images of `HELPERS_IMAGE_REPO` that no run will start from again: made with another version of
 * the helpers (an older tenet), or from a base image that has no name any more (removed, or its
 * tag moved to a rebuild), or left without a tag by a tenet that made it at the same time as
 * another.
 */
export async function staleHelpersImages(docker: Docker): Promise<StaleHelpersImage[]> {
  const key = helpersKey(await readHelpers(pythonHelpersDir()));
  const images = (await docker.listImages({
    filters: JSON.stringify({ label: [LABELS.helpers] }),
  })) as Docker.ImageInfo[];
  const stale: StaleHelpersImage[] = [];
  for (const image of images) {
    const name = image.RepoTags?.find((t) => t.startsWith(`${HELPERS_IMAGE_REPO}:`));
    const version = name?.slice(HELPERS_IMAGE_REPO.length + 1) ?? '';
    const [baseId, helpers] = version.split('-');
    let reason: string | undefined;
    if (!name || !baseId || !helpers) reason = 'left without a name';
    else if (helpers !== key) reason = 'made for another version of tenet';
    else {
      const base = await docker
        .getImage(baseId)
        .inspect()
        .catch(() => undefined);
      if (!base?.RepoTags?.length) reason = 'its base image has no name any more';
    }
    if (reason) stale.push({ id: image.Id, name: name ?? image.Id, reason });
  }
  return stale;
}
