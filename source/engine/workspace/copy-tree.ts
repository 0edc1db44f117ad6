import { constants, existsSync } from 'node:fs';
import { copyFile, lstat, mkdir, readdir, readlink, realpath, stat, symlink, utimes } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { TenetError } from '../errors';

/** Folders never copied into a workspace: version control, caches, and virtual environments. */
const NOT_COPIED = new Set(['.git', '.hg', '.svn', 'node_modules', '.tox', '.nox', '.mypy_cache', '.pytest_cache', '.ruff_cache']);

export interface CopyStats {
  files: number;
  bytes: number;
  /** Files whose names look like pytest test modules, a cheap hint of the suite's size. */
  testFiles: number;
  /** Symbolic links that led out of the repository, copied as the files or folders they point to. */
  linksOut: number;
}

export const TEST_FILE = /^(test_.*|.*_test)\.py$/;

const isInside = (root: string, path: string) => path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);

/**
 * Copies a repository into `to`, keeping modification times (so compiled `__pycache__` files stay
 * valid and imports are as fast as in the checkout). The copy is a real copy: nothing in it leads
 * back out, so nothing tenet or the tests write there can reach the checkout or anything else.
 * The repository is walked from its real path (`--repo` may be spelled through a link). A symbolic
 * link whose target is inside the repository stays a link, made relative so that it leads to the
 * copy's file; one that leads out is copied as the file or folder it points to; a dangling one
 * that would lead out is left out. A link to a folder that holds the repository itself (`/`, a
 * parent) cannot be copied and is refused.
 */
export async function copyTree(from: string, to: string): Promise<CopyStats> {
  const root = await realpath(resolve(from));
  const stats: CopyStats = { files: 0, bytes: 0, testFiles: 0, linksOut: 0 };
  const copyOne = async (src: string, dst: string, name: string): Promise<void> => {
    await copyFile(src, dst, constants.COPYFILE_FICLONE);
    const info = await stat(src);
    await utimes(dst, info.atime, info.mtime);
    stats.files++;
    stats.bytes += info.size;
    if (TEST_FILE.test(name)) stats.testFiles++;
  };
  /**
   * `outside`: a folder reached through a link out of the repository; every link in it is copied
   * as what it points to. `seen`: the real folders being copied on this path, so a loop of links
   * ends instead of copying forever.
   */
  const copyDir = async (source: string, target: string, outside: boolean, seen: ReadonlySet<string>): Promise<void> => {
    await mkdir(target, { recursive: true });
    const entries = await readdir(source, { withFileTypes: true });
    const jobs: Promise<void>[] = [];
    for (const entry of entries) {
      const src = join(source, entry.name);
      const dst = join(target, entry.name);
      if (entry.isDirectory()) {
        if (NOT_COPIED.has(entry.name) || existsSync(join(src, 'pyvenv.cfg'))) continue;
        jobs.push(copyDir(src, dst, outside, seen));
      } else if (entry.isSymbolicLink()) {
        jobs.push(copyLink(src, dst, entry.name, outside, seen));
      } else if (entry.isFile()) {
        jobs.push(copyOne(src, dst, entry.name));
      }
    }
    await Promise.all(jobs);
    const info = await lstat(source);
    await utimes(target, info.atime, info.mtime);
  };
  const copyLink = async (src: string, dst: string, name: string, outside: boolean, seen: ReadonlySet<string>): Promise<void> => {
    let real: string;
    try {
      real = await realpath(src);
    } catch {
      // Dangling (or a loop): kept only when it points into the repository on paper.
      const onPaper = resolve(dirname(src), await readlink(src));
      if (!outside && isInside(root, onPaper)) await symlink(relative(dirname(src), onPaper), dst);
      return;
    }
    if (!outside && isInside(root, real)) {
      // `src` is under the real root (the walk never follows links), so the relative path holds in the copy.
      await symlink(relative(dirname(src), real) || '.', dst);
      return;
    }
    const info = await stat(real);
    if (info.isFile()) {
      stats.linksOut++;
      await copyOne(real, dst, name);
    } else if (info.isDirectory()) {
      if (isInside(real, root)) {
        throw new TenetError(
          `${relative(root, src) || src} is a link to ${real}, a folder that holds the repository itself: tenet cannot copy it into a workspace.`,
          'remove the link or point it at a folder outside the repository, or pass a --repo without it',
        );
      }
      if (seen.has(real)) return; // a loop of links: copied once already on this path
      stats.linksOut++;
      await copyDir(real, dst, true, new Set([...seen, real]));
    }
  };
  await copyDir(root, resolve(to), false, new Set([root]));
  return stats;
}
