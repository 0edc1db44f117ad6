import { sampleOfSuite } from '../helpers/qa-thm';

// CI's sample of the differential check (test/helpers/qa-thm.ts): jsonschema, targets 2 and 4 of 4.
sampleOfSuite('jsonschema', [2, 2]);
