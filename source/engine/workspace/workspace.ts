import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, parse, posix, resolve } from 'node:path';
import { onShutdown } from '../lifecycle';
import { copyTree, type CopyStats } from './copy-tree';
import { writeOwner } from './owner';
import { parkCopy, parkedCopyPath, takeParkedCopy } from './parked-copy';
import { removeTree, removeTreeNow } from './remove-tree';
import { listInside, mkdirInside, readInside, unlinkInside, writeInside, type WriteOptions } from './inside';

export interface WorkspaceOptions {
  /** Keep the scratch copy after tenet exits (for inspection). */
  keep?: boolean;
  /** Folder to create the scratch copy in (default: the OS temp folder). */
  parent?: string;
  /**
   * Start from the copy the last run of this repository left (brought up to date), and leave this
   * one for the next run (see ./parked-copy). Not with `keep`.
   */
  reuse?: boolean;
}

/**
 * A scratch copy of the user's repository. tenet runs tests, blanks the target and applies the
 * agent's code here; the user's checkout is only read. The copy is removed when the run ends,
 * also on Ctrl-C, SIGTERM or a crash; with `reuse`, a run that ends well leaves it for the next.
 */
export class Workspace {
  private unregister: () => void;
  /** Whether code tenet does not vouch for may have written here (see lentToContainer, ranAgentCode). */
  private lent = false;

  private constructor(
    readonly repoDir: string,
    readonly root: string,
    private readonly container: string,
    readonly stats: CopyStats,
    private readonly keep: boolean,
    /** Where this copy waits for the next run, with `reuse`. */
    private readonly parked: string | undefined,
  ) {
    this.unregister = onShutdown(() => this.removeNow());
  }

  static async create(repoDir: string, options: WorkspaceOptions = {}): Promise<Workspace> {
    const source = resolve(repoDir);
    const parent = options.parent ?? tmpdir();
    const keep = options.keep ?? false;
    const parked = options.reuse && !keep ? parkedCopyPath(parent, source) : undefined;
    // Made and marked in one go (no await between): a kill leaves no folder without its owner.
    // A parked copy is taken under a name made the same way (mkdtemp's, then removed for it).
    let container = mkdtempSync(join(parent, 'tenet-'));
    // Same folder name as the checkout: some suites look at it, and it reads well in paths.
    const name = basename(source) || 'repo';
    let reused = false;
    if (parked) {
      rmSync(container, { recursive: true, force: true });
      reused = takeParkedCopy(parked, container, name);
      if (!reused) container = mkdtempSync(join(parent, 'tenet-'));
    }
    // Beside the copy, out of the sandbox's reach: for `tenet gc`, if this tenet is killed.
    writeOwner(container, { keep });
    const root = join(container, name);
    // Ctrl-C while the copy is made: the half-made copy goes (the Workspace's own hook takes over once it exists).
    const abandon = onShutdown(() => removeTreeNow(container));
    try {
      const stats = await copyTree(source, root, { over: reused });
      return new Workspace(source, root, container, stats, keep, parked);
    } catch (error) {
      try {
        rmSync(container, { recursive: true, force: true });
      } catch {
        // what a run left there that cannot be removed stays for `tenet gc` to report
      }
      // A kept copy that cannot be brought up to date (a run left a folder or a file that cannot
      // be removed): a fresh copy then, which says what is wrong if the repository itself is.
      if (reused) return Workspace.create(repoDir, { ...options, reuse: false });
      throw error;
    } finally {
      abandon();
    }
  }

  path(rel: string): string {
    return join(this.root, rel);
  }

  /**
   * A file of the workspace as it is now. Code in the sandbox may have swapped it for a link: what
   * leads out of the workspace is refused (OutsideWorkspaceError), never read (see ./inside).
   */
  read(rel: string): Promise<Buffer> {
    return readInside(this.root, rel);
  }

  /**
   * Writes a file and drops its compiled bytecode: Python checks a `.pyc` by the source's mtime
   * (in seconds) and size, so two rewrites within a second could otherwise run stale code. A link
   * planted at the name is replaced by the file, never written through (see ./inside).
   */
  async write(rel: string, data: string | Buffer, options: WriteOptions = {}): Promise<void> {
    await writeInside(this.root, rel, data, options);
    dropBytecode(this.root, rel);
  }

  async mkdir(rel: string): Promise<void> {
    mkdirInside(this.root, rel);
  }

  /**
   * The copy is bind-mounted into a container: what the container's code writes lands here, and
   * the next run (maybe on this machine, outside any container) would run the bytecode it left
   * (see copy-tree.ts, keptBytecode). So this copy is not kept for the next run.
   */
  lentToContainer(): void {
    this.lent = true;
  }

  /**
   * The agent's code runs here from now on (its shell commands, its tests, the submitted body):
   * what it leaves — bytecode whose header matches its source, folder modes, FIFOs, sockets,
   * links — would be the next run's starting point. So this copy is not kept for the next run; a
   * copy only THM ran in (`tenet thm`) is, bytecode and all.
   */
  ranAgentCode(): void {
    this.lent = true;
  }

  /** Removes the copy, or with `reuse` leaves it for the next run (by then nothing runs in it). */
  async dispose(): Promise<void> {
    this.unregister();
    if (this.keep || (this.parked && !this.lent && parkCopy(this.container, this.parked))) return;
    await removeTree(this.container);
  }

  private removeNow(): void {
    if (!this.keep) removeTreeNow(this.container);
  }
}

/** Removes the source's `.pyc` files from its `__pycache__`, if that is a folder inside the workspace. */
function dropBytecode(root: string, rel: string): void {
  const cache = posix.join(posix.dirname(rel.split('\\').join('/')), '__pycache__');
  let entries;
  try {
    entries = listInside(root, cache).entries;
  } catch {
    return; // none, or not the workspace's own
  }
  const stem = `${parse(rel).name}.`;
  for (const entry of entries) {
    if (!entry.name.startsWith(stem) || !entry.name.endsWith('.pyc')) continue;
    try {
      unlinkInside(root, posix.join(cache, entry.name));
    } catch {
      // gone meanwhile
    }
  }
}
