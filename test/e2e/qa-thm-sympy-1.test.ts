import { sampleOfSuite } from '../helpers/qa-thm';

// CI's sample of the differential check (test/helpers/qa-thm.ts): sympy's printers, targets 1 and 3 of 4.
// Two targets a file: each file pays the suite's set-up (two traced runs of the scope, about a minute) once.
sampleOfSuite('sympy-printing', [1, 2]);
