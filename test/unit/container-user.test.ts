import { describe, expect, it } from 'vitest';
import { CONTAINER_UIDS, pickContainerUid } from '../../source/engine/sandbox/docker/container-user';

describe('pickContainerUid', () => {
  it('takes an id in the range that no other container of tenet runs as', () => {
    const all = CONTAINER_UIDS.last - CONTAINER_UIDS.first + 1;
    // Every id but one taken: whatever the random start, the free one is found.
    const free = CONTAINER_UIDS.first + 17;
    const taken = new Set(
      Array.from({ length: all }, (_, i) => CONTAINER_UIDS.first + i).filter((uid) => uid !== free),
    );
    for (const random of [0, 0.25, 0.5, 0.999]) expect(pickContainerUid(taken, () => random)).toBe(free);
  });

  it('starts at a random place, so two tenets starting at once rarely meet', () => {
    expect(pickContainerUid(new Set(), () => 0)).toBe(CONTAINER_UIDS.first);
    expect(pickContainerUid(new Set(), () => 0.999999)).toBe(CONTAINER_UIDS.last);
    expect(pickContainerUid(new Set([CONTAINER_UIDS.last]), () => 0.999999)).toBe(CONTAINER_UIDS.first);
  });

  it('stays where a rootless engine can map it and where no login is given an id', () => {
    expect(CONTAINER_UIDS.first).toBeGreaterThan(60_000);
    expect(CONTAINER_UIDS.last).toBeLessThan(61_184);
  });
});
