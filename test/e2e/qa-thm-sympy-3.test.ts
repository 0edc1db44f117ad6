import { sampleOfSuite } from '../helpers/qa-thm';

// CI's sample of the differential check (test/helpers/qa-thm.ts): sympy's printers, target 3 of 4.
sampleOfSuite('sympy-printing', [3, 4]);
