import { sampleOfSuite } from '../helpers/qa-thm';

// CI's sample of the differential check (test/helpers/qa-thm.ts): tests that reach the target from
// threads they start, a pool, a timer, asyncio tasks and callbacks (the chains name the test's line
// where it started the thread).
sampleOfSuite('concurrent');
