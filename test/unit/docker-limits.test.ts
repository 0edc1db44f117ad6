import { describe, expect, it } from 'vitest';
import { containerLimits, parseSize } from '../../source/engine/sandbox/docker/limits';
import { TenetError } from '../../source/engine/errors';

const MIB = 1024 ** 2;

function refusal(size: string | number): TenetError {
  try {
    parseSize(size, '--memory');
  } catch (error) {
    if (error instanceof TenetError) return error;
    throw error;
  }
  throw new Error(`parseSize accepted ${size}`);
}

describe('parseSize', () => {
  it('reads sizes with and without units', () => {
    expect([
      parseSize('512m', 'x'),
      parseSize('4g', 'x'),
      parseSize('6144k', 'x'),
      parseSize(String(7 * MIB), 'x'),
      parseSize('1.5g', 'x'),
    ]).toEqual([512 * MIB, 4 * 1024 * MIB, 6 * MIB, 7 * MIB, 1.5 * 1024 * MIB]);
  });

  it('accepts exactly 6 MiB, the least Docker takes, and refuses a byte less, as text or as a number', () => {
    expect(parseSize('6m', '--memory')).toBe(6 * MIB);
    expect(parseSize(6 * MIB, '--memory')).toBe(6 * MIB);
    expect(refusal(String(6 * MIB - 1)).message).toBe(`--memory ${6 * MIB - 1} is too small.`);
    expect(refusal('5m').message).toBe('--memory 5m is too small.');
    expect(refusal(1024).message).toBe('--memory 1024 is too small.');
  });

  it('names in its hint the same minimum it checks: the size in the hint is accepted, just under it is not', () => {
    const hinted = /at least (\S+)/.exec(refusal('1m').fix ?? '')?.[1];
    expect(hinted).toBe('6m');
    expect(parseSize(hinted!, '--memory')).toBe(6 * MIB);
    expect(() => parseSize(parseSize(hinted!, '--memory') - 1, '--memory')).toThrow(TenetError);
  });

  it('refuses text that is not a size', () => {
    expect(refusal('lots').fix).toBe('write it like 512m or 4g');
  });

  it('checks --memory and the /tmp size through containerLimits', () => {
    expect(() => containerLimits({ memory: '5m' })).toThrow('--memory 5m is too small.');
    expect(() => containerLimits({ tmp: '1m' })).toThrow('the /tmp size 1m is too small.');
    expect(containerLimits({ memory: '6m', tmp: '6m' })).toMatchObject({ memoryBytes: 6 * MIB, tmpBytes: 6 * MIB });
  });
});
