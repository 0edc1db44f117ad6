import { createReadStream } from 'node:fs';
import { lstat, readdir, readlink } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { extract, pack, type Pack } from 'tar-stream';

/** Who owns what tenet copies into a container: the user processes there run as. */
export interface Owner {
  uid: number;
  gid: number;
}

/** Adds one file, folder entry or link as `name`. */
export async function addFile(archive: Pack, path: string, name: string, owner: Owner): Promise<void> {
  const info = await lstat(path);
  if (info.isSymbolicLink()) {
    archive.entry({ name, type: 'symlink', linkname: await readlink(path), mode: 0o777, mtime: info.mtime, ...owner });
    return;
  }
  if (info.isDirectory()) {
    archive.entry({ name: `${name}/`, type: 'directory', mode: info.mode & 0o7777, mtime: info.mtime, ...owner });
    return;
  }
  await new Promise<void>((resolve, reject) => {
    const entry = archive.entry(
      { name, size: info.size, mode: info.mode & 0o7777, mtime: info.mtime, ...owner },
      (error) => (error ? reject(error) : resolve()),
    );
    createReadStream(path).on('error', reject).pipe(entry);
  });
}

/** Adds a folder and everything under it as `name/…`. */
export async function addTree(archive: Pack, dir: string, name: string, owner: Owner): Promise<void> {
  const info = await lstat(dir);
  archive.entry({ name: `${name}/`, type: 'directory', mode: info.mode & 0o7777, mtime: info.mtime, ...owner });
  // One file at a time: the tar stream is sequential anyway, and this keeps memory flat.
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const child = posix.join(name, entry.name);
    if (entry.isDirectory()) await addTree(archive, path, child, owner);
    else if (entry.isFile() || entry.isSymbolicLink()) await addFile(archive, path, child, owner);
  }
}

/**
 * A tar stream of a folder, its entries under `name/` and owned by `owner`, so the folder lands in
 * the container as one writable tree with file modes and modification times kept (Python's
 * bytecode cache checks mtimes).
 */
export function packTree(dir: string, name: string, owner: Owner): NodeJS.ReadableStream {
  const archive = pack();
  addTree(archive, dir, name, owner).then(
    () => archive.finalize(),
    (error: Error) => archive.destroy(error),
  );
  // tar-stream's streams (streamx) pipe into Node's like Node's own; dockerode only pipes them.
  return archive as unknown as NodeJS.ReadableStream;
}

/** A tar stream of some files or folders (not their content; paths relative to `root`), each under its relative path. */
export function packFiles(root: string, rels: string[], owner: Owner): NodeJS.ReadableStream {
  const archive = pack();
  (async () => {
    for (const rel of rels) await addFile(archive, join(root, rel), rel, owner);
  })().then(
    () => archive.finalize(),
    (error: Error) => archive.destroy(error),
  );
  // tar-stream's streams (streamx) pipe into Node's like Node's own; dockerode only pipes them.
  return archive as unknown as NodeJS.ReadableStream;
}

/** The content of the one regular file in a tar stream (what the Docker API's getArchive sends for a file). */
export function readSingleFile(tar: NodeJS.ReadableStream): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parser = extract();
    let found: Buffer | undefined;
    parser.on('entry', (header, stream, next) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk) => chunks.push(chunk as Buffer));
      stream.on('end', () => {
        if (header.type === 'file' && !found) found = Buffer.concat(chunks);
        next();
      });
      stream.resume();
    });
    parser.on('finish', () => (found ? resolve(found) : reject(new Error('the archive holds no file'))));
    parser.on('error', reject);
    tar.on('error', reject);
    tar.pipe(parser as unknown as NodeJS.WritableStream);
  });
}
