import { constants, existsSync, lstatSync, readdirSync, statSync, utimesSync } from 'node:fs';
import { copyFile, mkdir, readlink, realpath, rm, stat, symlink, utimes } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { TenetError } from '../errors';
import { childPath, nameText, rawEntries, type RawPath } from './raw-names';

/** Folders never copied into a workspace: version control, caches, and virtual environments. */
export const NOT_COPIED: ReadonlySet<string> = new Set([
  '.git',
  '.hg',
  '.svn',
  'node_modules',
  '.tox',
  '.nox',
  '.mypy_cache',
  '.pytest_cache',
  '.ruff_cache',
]);

export interface CopyStats {
  files: number;
  bytes: number;
  /** Files whose names look like pytest test modules, a cheap hint of the suite's size. */
  testFiles: number;
  /** Symbolic links that led out of the repository, copied as the files or folders they point to. */
  linksOut: number;
}

export const TEST_FILE = /^(test_.*|.*_test)\.py$/;

const PYCACHE = '__pycache__';
/** `<module>.<tag>.pyc`, and pytest's `<module>.<tag>-pytest-<version>.pyc`: a module's name has no dot. */
const BYTECODE = /^([^.]+)\..*\.pyc$/;

const isInside = (root: string, path: string) =>
  path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);

/**
 * Copies a repository into `to`, keeping modification times (so compiled `__pycache__` files stay
 * valid and imports are as fast as in the checkout). The copy is a real copy: nothing in it leads
 * back out, so nothing tenet or the tests write there can reach the checkout or anything else.
 * The repository is walked from its real path (`--repo` may be spelled through a link). A symbolic
 * link whose target is inside the repository stays a link, made relative so that it leads to the
 * copy's file; one that leads out is copied as the file or folder it points to; a dangling one
 * that would lead out is left out. A link to a folder that holds the repository itself (`/`, a
 * parent) cannot be copied and is refused.
 *
 * `over`: `to` may hold an earlier copy, which ends up as a fresh copy would be. A file of the same
 * size, modification time (to the millisecond, what a copy keeps of it) and mode, linked nowhere
 * else, is kept; anything else there is removed (never written through: it may be a link, or a
 * hard link, planted by code that ran there) and copied again; what the repository does not
 * have is removed, but for the bytecode an earlier run compiled there (see keptBytecode).
 */
export async function copyTree(
  from: string,
  to: string,
  { over = false }: { over?: boolean } = {},
): Promise<CopyStats> {
  const root = await realpath(resolve(from));
  const stats: CopyStats = { files: 0, bytes: 0, testFiles: 0, linksOut: 0 };
  // The walk looks at every file and folder with synchronous calls: on a repository of thousands
  // of files, a promise per stat costs four times the stat itself (sympy, 3,110 files brought up to
  // date: 0.15 s against 0.4 s). Only the copies, where bytes move, go through the thread pool.
  /** In `over` mode, what is at `dst` now (undefined: nothing, or not looked at). */
  const present = (dst: RawPath): Stats | undefined => (over ? lstatSync(dst, { throwIfNoEntry: false }) : undefined);
  const copyOne = async (src: RawPath, dst: RawPath, name: string): Promise<void> => {
    const info = statSync(src);
    const there = present(dst);
    stats.files++;
    stats.bytes += info.size;
    if (TEST_FILE.test(name)) stats.testFiles++;
    if (
      there?.isFile() &&
      there.size === info.size &&
      Math.abs(there.mtimeMs - info.mtimeMs) < 1 &&
      there.mode === info.mode &&
      there.nlink === 1
    )
      return;
    if (there) await rm(dst, { recursive: true, force: true });
    await copyFile(src, dst, constants.COPYFILE_FICLONE);
    await utimes(dst, info.atime, info.mtime);
  };
  /**
   * In `over` mode, whether `name` in a `__pycache__` folder is bytecode an earlier run compiled
   * for one of the `modules` beside it, and stays: a plain file linked nowhere else. The next run
   * then neither compiles those modules again nor has pytest rewrite the tests' asserts again
   * (3 s of a 5.5 s run of sympy's test_latex.py, where bytecode is not written in the checkout).
   * Python and pytest take such a file only while its source's mtime and size are the ones it was
   * compiled from, as in the checkout. (A copy a container could write in is not kept at all:
   * see Workspace.lentToContainer.)
   */
  const keptBytecode = (folder: RawPath, raw: Buffer, modules: ReadonlySet<string>): boolean => {
    const module = BYTECODE.exec(nameText(raw))?.[1];
    if (module === undefined || !modules.has(module)) return false;
    const info = lstatSync(childPath(folder, raw), { throwIfNoEntry: false });
    return !!info?.isFile() && info.nlink === 1;
  };
  /** What the cleanup leaves of a `__pycache__` folder the repository does not have: the kept bytecode. */
  const pruneBytecode = async (folder: RawPath, modules: ReadonlySet<string>): Promise<void> => {
    const left = readdirSync(folder, { encoding: 'buffer' }).filter((raw) => !keptBytecode(folder, raw, modules));
    await Promise.all(left.map((raw) => rm(childPath(folder, raw), { recursive: true, force: true })));
  };
  /** A link that leads to `target` at `dst` (in `over` mode, the one there if it does already). */
  const link = async (target: string, dst: string): Promise<void> => {
    const there = present(dst);
    if (there?.isSymbolicLink() && (await readlink(dst)) === target) return;
    if (there) await rm(dst, { recursive: true, force: true });
    await symlink(target, dst);
  };
  /**
   * `outside`: a folder reached through a link out of the repository; every link in it is copied
   * as what it points to. `seen`: the real folders being copied on this path, so a loop of links
   * ends instead of copying forever. `modules`: for a `__pycache__` folder, the modules beside it.
   */
  const copyDir = async (
    source: RawPath,
    target: RawPath,
    outside: boolean,
    seen: ReadonlySet<string>,
    modules?: ReadonlySet<string>,
  ): Promise<void> => {
    const there = present(target);
    if (there && !there.isDirectory()) await rm(target, { force: true });
    // Not recursive: the parent was made before (the walk goes top down), and a Ctrl-C that removes
    // the half-made copy while this call waits in the thread pool must not see it make the path again.
    if (!there?.isDirectory()) await mkdir(target);
    // Names read as bytes: one that is not UTF-8 is copied under its own bytes (see raw-names.ts).
    const entries = rawEntries(source);
    const texts = entries.map((entry) => nameText(entry.name));
    const here = new Set(
      texts
        .filter((name, index) => !entries[index]!.isDirectory() && name.endsWith('.py'))
        .map((name) => name.slice(0, -3)),
    );
    // Each job: whether it put something at its name.
    const jobs: Promise<boolean>[] = [];
    const names: string[] = [];
    const made = () => true;
    entries.forEach((entry, index) => {
      const name = texts[index]!;
      const src = childPath(source, entry.name);
      const dst = childPath(target, entry.name);
      if (entry.isDirectory()) {
        if (NOT_COPIED.has(name) || existsSync(childPath(src, 'pyvenv.cfg'))) return;
        jobs.push(copyDir(src, dst, outside, seen, name === PYCACHE ? here : undefined).then(made));
      } else if (entry.isSymbolicLink()) {
        jobs.push(copyLink(src, dst, name, outside, seen));
      } else if (entry.isFile()) {
        jobs.push(copyOne(src, dst, name).then(made));
      } else {
        return;
      }
      names.push(name);
    });
    const done = await Promise.all(jobs);
    if (there?.isDirectory()) {
      // What an earlier run left that the repository does not have (rm does not follow links).
      const copied = new Set(names.filter((_, index) => done[index]));
      const left = readdirSync(target, { encoding: 'buffer' }).filter(
        (raw) => !copied.has(nameText(raw)) && !(modules && keptBytecode(target, raw, modules)),
      );
      await Promise.all(
        left.map((raw) => {
          const path = childPath(target, raw);
          return nameText(raw) === PYCACHE && lstatSync(path, { throwIfNoEntry: false })?.isDirectory()
            ? pruneBytecode(path, here)
            : rm(path, { recursive: true, force: true });
        }),
      );
    }
    const info = lstatSync(source);
    utimesSync(target, info.atime, info.mtime);
  };
  /**
   * Copies a link as the rules above say; false where nothing is copied for it. A link whose path
   * is not UTF-8 is left out: where it leads cannot be told as text, so it cannot be checked.
   */
  const copyLink = async (
    src: RawPath,
    dst: RawPath,
    name: string,
    outside: boolean,
    seen: ReadonlySet<string>,
  ): Promise<boolean> => {
    if (typeof src !== 'string' || typeof dst !== 'string') return false;
    let real: string;
    try {
      real = await realpath(src);
    } catch {
      // Dangling (or a loop): kept only when it points into the repository on paper.
      const onPaper = resolve(dirname(src), await readlink(src));
      if (!outside && isInside(root, onPaper)) {
        await link(relative(dirname(src), onPaper), dst);
        return true;
      }
      return false;
    }
    if (!outside && isInside(root, real)) {
      // `src` is under the real root (the walk never follows links), so the relative path holds in the copy.
      await link(relative(dirname(src), real) || '.', dst);
      return true;
    }
    const info = await stat(real);
    if (info.isFile()) {
      stats.linksOut++;
      await copyOne(real, dst, name);
      return true;
    }
    if (info.isDirectory()) {
      if (isInside(real, root)) {
        throw new TenetError(
          `${relative(root, src) || src} is a link to ${real}, a folder that holds the repository itself: tenet cannot copy it into a workspace.`,
          'remove the link or point it at a folder outside the repository, or pass a --repo without it',
        );
      }
      if (seen.has(real)) return false; // a loop of links: copied once already on this path
      stats.linksOut++;
      await copyDir(real, dst, true, new Set([...seen, real]));
      return true;
    }
    return false;
  };
  await copyDir(root, resolve(to), false, new Set([root]));
  return stats;
}
