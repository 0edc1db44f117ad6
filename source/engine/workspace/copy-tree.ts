import { constants, existsSync } from 'node:fs';
import { copyFile, lstat, mkdir, readdir, readlink, symlink, utimes } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';

/** Folders never copied into a workspace: version control, caches, and virtual environments. */
const NOT_COPIED = new Set(['.git', '.hg', '.svn', 'node_modules', '.tox', '.nox', '.mypy_cache', '.pytest_cache', '.ruff_cache']);

export interface CopyStats {
  files: number;
  bytes: number;
  /** Files whose names look like pytest test modules, a cheap hint of the suite's size. */
  testFiles: number;
}

const TEST_FILE = /^(test_.*|.*_test)\.py$/;

/**
 * Copies a repository into `to`, keeping modification times (so compiled `__pycache__` files stay
 * valid and imports are as fast as in the checkout) and turning absolute symlinks that point into
 * the repository into links inside the copy, so nothing in the copy leads back to the checkout.
 */
export async function copyTree(from: string, to: string): Promise<CopyStats> {
  const root = resolve(from);
  const stats: CopyStats = { files: 0, bytes: 0, testFiles: 0 };
  const copyDir = async (source: string, target: string): Promise<void> => {
    await mkdir(target, { recursive: true });
    const entries = await readdir(source, { withFileTypes: true });
    const jobs: Promise<void>[] = [];
    for (const entry of entries) {
      const src = join(source, entry.name);
      const dst = join(target, entry.name);
      if (entry.isDirectory()) {
        if (NOT_COPIED.has(entry.name) || existsSync(join(src, 'pyvenv.cfg'))) continue;
        jobs.push(copyDir(src, dst));
      } else if (entry.isSymbolicLink()) {
        jobs.push(copyLink(src, dst));
      } else if (entry.isFile()) {
        jobs.push(copyOne(src, dst, entry.name));
      }
    }
    await Promise.all(jobs);
    const info = await lstat(source);
    await utimes(target, info.atime, info.mtime);
  };
  const copyOne = async (src: string, dst: string, name: string): Promise<void> => {
    await copyFile(src, dst, constants.COPYFILE_FICLONE);
    const info = await lstat(src);
    await utimes(dst, info.atime, info.mtime);
    stats.files++;
    stats.bytes += info.size;
    if (TEST_FILE.test(name)) stats.testFiles++;
  };
  const copyLink = async (src: string, dst: string): Promise<void> => {
    let link = await readlink(src);
    if (isAbsolute(link)) {
      const inside = relative(root, link);
      if (!inside.startsWith('..') && !isAbsolute(inside)) link = join(resolve(to), inside);
    }
    await symlink(link, dst);
  };
  await copyDir(root, resolve(to));
  return stats;
}
