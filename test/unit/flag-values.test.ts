import { describe, expect, it } from 'vitest';
import { jobsValue, MAX_SECONDS, secondsParser } from '../../source/program/flags';

// Issue 34, item 7: flag values that could not work were taken as they came.
describe('flag values', () => {
  it('--jobs above twice the cores is capped there, with a warning (--jobs 1000 started some 250 pytest processes)', () => {
    const said: string[] = [];
    expect(jobsValue('1000', 2, (line) => said.push(line))).toBe(4);
    expect(said).toEqual(['tenet: warning: --jobs 1000 is more than twice the 2 cores: using 4']);
    expect(jobsValue('3', 2, (line) => said.push(line))).toBe(3);
    expect(jobsValue('auto', 2)).toBe('auto');
    expect(said).toHaveLength(1);
  });

  it('a time limit above a day is refused: --test-timeout 1e308 errored every test', () => {
    expect(() => secondsParser('--test-timeout')('1e308')).toThrow(
      `--test-timeout must be at most ${MAX_SECONDS} seconds (a day).`,
    );
    expect(secondsParser('--test-timeout')('90')).toBe(90);
    expect(() => secondsParser('--timeout')('0')).toThrow('--timeout must be a number > 0.');
  });
});
