import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach } from 'vitest';
import type { FakeModelServer } from './fake-model-server';

/** Cart.total of the shop fixture, done right: what the fake model submits in the steering tests. */
export const SHOP_TOTAL_RIGHT =
  'def total(self):\n    amount = self.subtotal()\n    return discount(amount, self.percent)\n';

/**
 * For a test file that runs tenet against fake model servers: a scratch folder, removed after the
 * file's tests, and `track`, which closes each server a test started once that test ends.
 */
export function scratchWithServers(prefix: string): {
  scratch: string;
  track: (server: FakeModelServer) => FakeModelServer;
} {
  const scratch = mkdtempSync(join(tmpdir(), prefix));
  const started: FakeModelServer[] = [];
  afterEach(async () => {
    // A test may have closed one itself (to start another in its place).
    await Promise.allSettled(started.splice(0).map((server) => server.close()));
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  return { scratch, track: (server) => (started.push(server), server) };
}
