import { rmSync } from 'node:fs';
import { mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, parse, resolve } from 'node:path';
import { existsSync, readdirSync } from 'node:fs';
import { onShutdown } from '../lifecycle';
import { copyTree, type CopyStats } from './copy-tree';

export interface WorkspaceOptions {
  /** Keep the scratch copy after tenet exits (for inspection). */
  keep?: boolean;
  /** Folder to create the scratch copy in (default: the OS temp folder). */
  parent?: string;
}

/**
 * A scratch copy of the user's repository. tenet runs tests, blanks the target and applies the
 * agent's code here; the user's checkout is only read. The copy is removed when the run ends,
 * also on Ctrl-C, SIGTERM or a crash.
 */
export class Workspace {
  private unregister: () => void;

  private constructor(
    readonly repoDir: string,
    readonly root: string,
    private readonly container: string,
    readonly stats: CopyStats,
    private readonly keep: boolean,
  ) {
    this.unregister = onShutdown(() => this.removeNow());
  }

  static async create(repoDir: string, options: WorkspaceOptions = {}): Promise<Workspace> {
    const source = resolve(repoDir);
    const container = await mkdtemp(join(options.parent ?? tmpdir(), 'tenet-'));
    // Same folder name as the checkout: some suites look at it, and it reads well in paths.
    const root = join(container, basename(source) || 'repo');
    try {
      const stats = await copyTree(source, root);
      return new Workspace(source, root, container, stats, options.keep ?? false);
    } catch (error) {
      rmSync(container, { recursive: true, force: true });
      throw error;
    }
  }

  path(rel: string): string {
    return join(this.root, rel);
  }

  read(rel: string): Promise<Buffer> {
    return readFile(this.path(rel));
  }

  /**
   * Writes a file and drops its compiled bytecode: Python checks a `.pyc` by the source's mtime
   * (in seconds) and size, so two rewrites within a second could otherwise run stale code.
   */
  async write(rel: string, data: string | Buffer): Promise<void> {
    const path = this.path(rel);
    await writeFile(path, data);
    await dropBytecode(path);
  }

  async dispose(): Promise<void> {
    this.unregister();
    if (!this.keep) await rm(this.container, { recursive: true, force: true });
  }

  private removeNow(): void {
    if (!this.keep) rmSync(this.container, { recursive: true, force: true });
  }
}

async function dropBytecode(sourcePath: string): Promise<void> {
  const cache = join(dirname(sourcePath), '__pycache__');
  if (!existsSync(cache)) return;
  const stem = `${parse(sourcePath).name}.`;
  await Promise.all(
    readdirSync(cache)
      .filter((name) => name.startsWith(stem) && name.endsWith('.pyc'))
      .map((name) => unlink(join(cache, name)).catch(() => undefined)),
  );
}
