import type Docker from 'dockerode';
import { pack, type Pack } from 'tar-stream';
import { TenetError } from '../errors';
import { addFile, addTree } from '../sandbox/docker/archive';

/** What goes into a build context: files and folders from disk, and files written out of strings. */
export interface ContextItem {
  /** Its path in the context. */
  name: string;
  /** A file or folder on disk (a folder goes whole)… */
  from?: string;
  /** …or this content. */
  text?: string;
}

const ROOT = { uid: 0, gid: 0 };

async function fill(archive: Pack, items: ContextItem[]): Promise<void> {
  for (const item of items) {
    if (item.text !== undefined) {
      await new Promise<void>((resolve, reject) =>
        archive.entry({ name: item.name, mode: 0o644, ...ROOT }, item.text!, (error) =>
          error ? reject(error) : resolve(),
        ),
      );
    } else if (item.from) {
      const { lstat } = await import('node:fs/promises');
      if ((await lstat(item.from)).isDirectory()) await addTree(archive, item.from, item.name, ROOT);
      else await addFile(archive, item.from, item.name, ROOT);
    }
  }
}

/**
 * `docker build` of a context made here (a Dockerfile among the items): no registry is needed when
 * the FROM image is on the engine, which is how tenet's images are made offline.
 */
export async function buildFromContext(
  docker: Docker,
  tag: string,
  items: ContextItem[],
  labels: Record<string, string> = {},
  onLine?: (line: string) => void,
): Promise<void> {
  const archive = pack();
  fill(archive, items).then(
    () => archive.finalize(),
    (error: Error) => archive.destroy(error),
  );
  const stream = (await docker.buildImage(archive as unknown as NodeJS.ReadableStream, {
    t: tag,
    labels,
    forcerm: true,
    rm: true,
  })) as unknown as NodeJS.ReadableStream;
  await new Promise<void>((resolve, reject) => {
    docker.modem.followProgress(
      stream,
      (error: Error | null, output: { error?: string }[]) => {
        const failed = output?.find((o) => o.error);
        if (error || failed)
          reject(new TenetError(`docker build of ${tag} failed: ${(error?.message ?? failed?.error ?? '').trim()}`));
        else resolve();
      },
      (event: { stream?: string }) => {
        if (event.stream?.trim()) onLine?.(event.stream.trim());
      },
    );
  });
}
