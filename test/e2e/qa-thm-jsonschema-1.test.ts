import { sampleOfSuite } from '../helpers/qa-thm';

// CI's sample of the differential check (test/helpers/qa-thm.ts): jsonschema, targets 1 and 3 of 4.
sampleOfSuite('jsonschema', [1, 2]);
