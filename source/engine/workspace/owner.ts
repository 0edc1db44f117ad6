import { readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { processRuns, processStart } from '../util/processes';

/**
 * Who made a scratch folder (a workspace's, the interpreter check's): written into it when it is
 * made, so that `tenet gc` can tell the folders of a tenet still running from those a killed one
 * left behind. The process's start time guards against a pid used again by another process.
 */
export interface ScratchOwner {
  pid: number;
  host: string;
  /** Linux: the process's start, in clock ticks since boot (/proc/PID/stat); undefined elsewhere. */
  started?: number;
  /** `--keep-workspace`: kept on purpose, not left behind. */
  keep?: boolean;
}

export const OWNER_FILE = 'tenet-owner.json';

export function writeOwner(dir: string, options: { keep?: boolean } = {}): void {
  const owner: ScratchOwner = {
    pid: process.pid,
    host: hostname(),
    ...(processStart(process.pid) !== undefined ? { started: processStart(process.pid)! } : {}),
    ...(options.keep ? { keep: true } : {}),
  };
  writeFileSync(join(dir, OWNER_FILE), `${JSON.stringify(owner)}\n`);
}

export function readOwner(dir: string): ScratchOwner | undefined {
  try {
    const owner = JSON.parse(readFileSync(join(dir, OWNER_FILE), 'utf8')) as ScratchOwner;
    return typeof owner.pid === 'number' && typeof owner.host === 'string' ? owner : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the process that made it still runs: here, with that pid, started when it was. */
export function ownerRuns(owner: ScratchOwner): boolean {
  if (owner.host !== hostname()) return true; // cannot be checked from here: not ours to remove
  return processRuns(owner.pid, owner.started);
}
