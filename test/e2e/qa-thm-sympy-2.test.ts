import { sampleOfSuite } from '../helpers/qa-thm';

// CI's sample of the differential check (test/helpers/qa-thm.ts): sympy's printers, target 2 of 4.
// A target a file (each costs minutes in five modes; sympy is not in the Docker image); the four make the
// suite's set-up once between them.
sampleOfSuite('sympy-printing', [2, 4]);
