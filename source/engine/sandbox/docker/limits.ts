import { availableParallelism } from 'node:os';
import { TenetError } from '../../errors';
import type { ContainerLimits } from '../../protocol/settings';

export const DEFAULT_LIMITS = {
  memory: '4g',
  cpus: availableParallelism(),
  pids: 1024,
  tmp: '1g',
  network: false,
} as const;

const UNITS: Record<string, number> = { '': 1, b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/** The least memory Docker accepts for a container (6 MiB); smaller sizes are refused here, with the same figure in the hint. */
export const MIN_SIZE_BYTES = 6 * 1024 ** 2;

/** `512m`, `4g`, `1073741824` → bytes. */
export function parseSize(text: string | number, what: string): number {
  let bytes: number;
  if (typeof text === 'number') {
    bytes = text;
  } else {
    const match = /^(\d+(?:\.\d+)?)\s*([bkmg]?)b?$/i.exec(text.trim());
    if (!match) throw new TenetError(`${what} ${text} is not a size.`, 'write it like 512m or 4g');
    bytes = Math.round(Number(match[1]) * UNITS[match[2]!.toLowerCase()]!);
  }
  if (!Number.isFinite(bytes) || bytes < MIN_SIZE_BYTES)
    throw new TenetError(`${what} ${text} is too small.`, 'give it at least 6m (6 MiB, the least Docker accepts)');
  return bytes;
}

export function containerLimits(
  given: { memory?: string | number; cpus?: number; pids?: number; tmp?: string | number; network?: boolean } = {},
): ContainerLimits {
  const cpus = given.cpus ?? DEFAULT_LIMITS.cpus;
  const pids = given.pids ?? DEFAULT_LIMITS.pids;
  if (!(cpus > 0)) throw new TenetError(`--cpus ${cpus} must be a positive number.`);
  if (!(Number.isInteger(pids) && pids >= 16))
    throw new TenetError(`--pids ${pids} must be a whole number of at least 16.`);
  return {
    memoryBytes: parseSize(given.memory ?? DEFAULT_LIMITS.memory, '--memory'),
    cpus,
    pids,
    tmpBytes: parseSize(given.tmp ?? DEFAULT_LIMITS.tmp, 'the /tmp size'),
    network: given.network ?? DEFAULT_LIMITS.network,
  };
}
