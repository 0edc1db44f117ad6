import { sampleOfSuite } from '../helpers/qa-thm';

// CI's sample of the differential check (test/helpers/qa-thm.ts): sympy's printers, target 4 of 4.
sampleOfSuite('sympy-printing', [4, 4]);
