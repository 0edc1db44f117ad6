import { sampleOfSuite } from '../helpers/qa-thm';

// CI's sample of the differential check (test/helpers/qa-thm.ts): a src layout with a namespace
// subpackage, targets 2 and 4 of 4.
sampleOfSuite('nslayout', [2, 2]);
