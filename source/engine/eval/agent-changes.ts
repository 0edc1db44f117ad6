import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import type { Sandbox } from '../sandbox/sandbox';
import type { Workspace } from '../workspace/workspace';
import { readInside } from '../workspace/inside';

/** Every file of the workspace (caches and tenet's folder aside) and a digest of its content, as the sandbox sees them. */
export type TreeDigest = Map<string, string>;

export interface GuardContext {
  sandbox: Sandbox;
  workspace: Workspace;
  python: string;
  /** The developer's checkout, which the workspace was copied from. */
  repoDir: string;
}

const helper = (sandbox: Sandbox) => posix.join(sandbox.helpersDir, '_tenet_tree.py');

/** The workspace's files now (see source/python/_tenet_tree.py); run inside the sandbox, which may hold its own copy. */
export async function digestTree(ctx: GuardContext): Promise<TreeDigest> {
  const run = await ctx.sandbox.run([ctx.python, '-I', '-S', helper(ctx.sandbox), 'hash', ctx.sandbox.workdir], { timeoutMs: 120_000, maxOutputBytes: 256 * 1024 * 1024 });
  if (run.exitCode !== 0 || run.timedOut) throw new Error(`could not list the workspace's files: ${(run.stderr || run.stdout).trim().split('\n').at(-1) ?? ''}`);
  return new Map(Object.entries(JSON.parse(run.stdout) as Record<string, string>));
}

export interface UndoneChanges {
  /** Files put back as they were when the agent started. */
  restored: string[];
  /** Files the agent made, removed. */
  removed: string[];
  /** Files the agent changed that could not be put back: their content then is nowhere to be had (the checkout changed too). */
  kept: string[];
}

const sha1 = (bytes: Buffer) => createHash('sha1').update(bytes).digest('hex');

/**
 * Puts the workspace back as it was when the agent started, but for the files tenet itself writes
 * during the run (`own`: the target's file, the agent's test file, the hidden tests' files): the
 * agent's shell commands may have rewritten a test, planted a conftest.py or changed a helper
 * module, and the evaluation must judge the submitted function against the repository's own code
 * and tests, not those. A file's content then is taken from wherever it still is, checked by its
 * digest: the workspace on the host (a container changed only its own copy) or the checkout.
 */
export async function undoAgentChanges(ctx: GuardContext, before: TreeDigest, own: ReadonlySet<string>): Promise<UndoneChanges> {
  const now = await digestTree(ctx);
  const undone: UndoneChanges = { restored: [], removed: [], kept: [] };
  const added = [...now.keys()].filter((rel) => !before.has(rel) && !own.has(rel));
  for (const [rel, digest] of before) {
    if (own.has(rel) || now.get(rel) === digest) continue;
    const original = await firstMatching(ctx, rel, digest);
    if (!original) {
      undone.kept.push(rel);
      continue;
    }
    await ctx.workspace.write(rel, original);
    await ctx.sandbox.syncFile(rel);
    undone.restored.push(rel);
  }
  if (added.length) {
    const run = await ctx.sandbox.run([ctx.python, '-I', '-S', helper(ctx.sandbox), 'remove', ctx.sandbox.workdir, ...added], { timeoutMs: 60_000 });
    if (run.exitCode === 0) undone.removed.push(...added);
    else undone.kept.push(...added);
  }
  return undone;
}

async function firstMatching(ctx: GuardContext, rel: string, digest: string): Promise<Buffer | undefined> {
  if (digest.startsWith('link:')) return undefined; // a link the agent replaced: not a file to write back
  for (const root of [ctx.workspace.root, ctx.repoDir]) {
    try {
      const bytes = await readInside(root, rel);
      if (sha1(bytes) === digest) return bytes;
    } catch {
      // not there, or not a file inside that folder: try the next place
    }
  }
  return undefined;
}
