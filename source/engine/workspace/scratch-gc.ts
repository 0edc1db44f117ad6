import { lstatSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ownerRuns, readOwner } from './owner';
import { PARKED_COPY } from './parked-copy';

/** A scratch folder of tenet's in the temp folder, and why it goes or stays. */
export interface ScratchFolder {
  path: string;
  kind: 'workspace' | 'interpreter check' | 'copy kept for the next run';
  bytes: number;
  /** Why it stays (kept), or whose it was (removed). */
  reason: string;
}

const WORKSPACE = /^tenet-[A-Za-z0-9]{6}$/;
const CHECK = /^tenet-python-check-[A-Za-z0-9]{6}$/;
/** Folders of a tenet from before owners were written are only taken when nothing touched them for this long. */
const UNMARKED_AGE_MS = 60 * 60 * 1000;

/** A running tenet adds and removes files while this walks: what vanishes meanwhile counts as nothing. */
function sizeOf(path: string): number {
  const info = lstatSync(path, { throwIfNoEntry: false });
  if (!info) return 0;
  if (!info.isDirectory()) return info.size;
  let names: string[];
  try {
    names = readdirSync(path);
  } catch (error) {
    if (vanished(error)) return 0;
    throw error;
  }
  return names.reduce((sum, name) => sum + sizeOf(join(path, name)), 0);
}

/** The folder (or a file in it) was removed between listing and reading: its tenet cleaned up. */
function vanished(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** Whether a process works in this folder (its current directory is in it). */
function inUse(dir: string): boolean {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cwd = readlinkSync(`/proc/${entry}/cwd`);
      if (cwd === dir || cwd.startsWith(`${dir}/`)) return true;
    } catch {
      // gone, or not ours to read
    }
  }
  return false;
}

/**
 * Why a folder without an owner file is tenet's and left behind, or undefined: a workspace holds
 * one copy with tenet's `.tenet` scratch in it, a check folder is empty, nothing was written in it
 * for an hour and no process works in it.
 */
function unmarkedLeftover(path: string, kind: ScratchFolder['kind'], now: number): string | undefined {
  const entries = readdirSync(path);
  // (Also what a kill between making the folder and writing its owner leaves: an empty one.)
  const looksOurs =
    entries.length === 0 ||
    (kind === 'workspace' &&
      entries.length === 1 &&
      lstatSync(join(path, entries[0]!, '.tenet'), { throwIfNoEntry: false })?.isDirectory());
  if (!looksOurs) return undefined;
  if (now - lstatSync(path).mtimeMs < UNMARKED_AGE_MS || inUse(path)) return undefined;
  return 'left by a tenet from before owners were recorded, untouched for an hour';
}

/**
 * Removes a folder, or says why it could not (what a test left there that cannot be removed: an
 * immutable file, a folder without write permission for another user's files): one such folder
 * does not stop the others from being collected.
 */
function removeOrSayWhy(path: string): string | undefined {
  try {
    rmSync(path, { recursive: true, force: true });
    return undefined;
  } catch (error) {
    // (Node reports an undeletable file inside as ENOTDIR, as it does a file removed meanwhile.)
    if (!lstatSync(path, { throwIfNoEntry: false })) return undefined;
    const where = (error as NodeJS.ErrnoException).path;
    return `could not be removed (${where && where !== path ? `${where} cannot be deleted` : (error as Error).message}): remove it by hand (an immutable file needs \`chattr -i\` first)`;
  }
}

/**
 * The scratch workspaces and interpreter-check folders a killed tenet left in the temp folder
 * (SIGKILL leaves them: nothing runs to remove them), and the copies finished runs left for the
 * next run of their repository (no tenet works in one: a run renames it before it uses it). Those
 * of a tenet still running stay, and so do workspaces kept on purpose (`--keep-workspace`).
 */
export function collectScratch(options: { tmp?: string; dryRun?: boolean; now?: number } = {}): {
  removed: ScratchFolder[];
  kept: ScratchFolder[];
} {
  const tmp = options.tmp ?? tmpdir();
  const now = options.now ?? Date.now();
  const removed: ScratchFolder[] = [];
  const kept: ScratchFolder[] = [];
  let names: string[];
  try {
    names = readdirSync(tmp);
  } catch {
    return { removed, kept };
  }
  for (const name of names) {
    const kind = WORKSPACE.test(name)
      ? 'workspace'
      : CHECK.test(name)
        ? 'interpreter check'
        : PARKED_COPY.test(name)
          ? 'copy kept for the next run'
          : undefined;
    const path = join(tmp, name);
    if (!kind || !lstatSync(path, { throwIfNoEntry: false })?.isDirectory()) continue;
    try {
      const owner = kind === 'copy kept for the next run' ? undefined : readOwner(path);
      let gone: string | undefined;
      if (kind === 'copy kept for the next run') {
        gone = 'the next run of its repository copies it again';
      } else if (owner) {
        if (owner.keep) kept.push({ path, kind, bytes: sizeOf(path), reason: 'kept on purpose (--keep-workspace)' });
        else if (ownerRuns(owner))
          kept.push({
            path,
            kind,
            bytes: sizeOf(path),
            reason: `its tenet (${owner.host}:${owner.pid}) is still running`,
          });
        else gone = `left by tenet ${owner.host}:${owner.pid}, which is gone`;
      } else {
        gone = unmarkedLeftover(path, kind, now);
      }
      if (!gone) continue;
      const bytes = sizeOf(path);
      const failure = options.dryRun ? undefined : removeOrSayWhy(path);
      if (failure) kept.push({ path, kind, bytes: sizeOf(path), reason: failure });
      else removed.push({ path, kind, bytes, reason: gone });
    } catch (error) {
      // A tenet that finished while this looked removed its own folder: nothing is left to collect.
      if (!vanished(error)) throw error;
    }
  }
  return { removed, kept };
}
