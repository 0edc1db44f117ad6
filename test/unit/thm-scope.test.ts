import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { lanesForCores, shardCount } from '../../source/engine/thm/run-thm';

describe('how many shards a pytest pass gets', () => {
  it('THM with --jobs auto: a lane per core (the plugin uses fewer for a small scope)', () => {
    expect(lanesForCores()).toBe(Math.min(availableParallelism(), 4));
  });

  it("bench make's reach pass: processes by test files; a given number as it is", () => {
    expect(shardCount('auto', 3)).toBe(1);
    expect(shardCount('auto', 40)).toBe(Math.min(availableParallelism(), 4));
    expect(shardCount(3, 1)).toBe(3);
  });
});
