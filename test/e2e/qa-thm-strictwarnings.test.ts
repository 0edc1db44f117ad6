import { describe, expect, it } from 'vitest';
import { SAMPLE_SUITES, sampleOfSuite, sampleShare } from '../helpers/qa-thm';

// CI's sample of the differential check (test/helpers/qa-thm.ts): a suite under
// `filterwarnings = error`, and a check that the qa-thm files cover the whole sample.
sampleOfSuite('strictwarnings');

describe('the fixed sample, spread over the qa-thm files', () => {
  it('covers every suite of the sample, 16 targets in all', () => {
    // The files name these suites and their parts: a suite added to the sample needs its file.
    expect(SAMPLE_SUITES).toEqual(['sympy-printing', 'jsonschema', 'nslayout', 'strictwarnings', 'concurrent']);
    expect(SAMPLE_SUITES.map(sampleShare)).toEqual([4, 4, 4, 2, 2]);
  });
});
