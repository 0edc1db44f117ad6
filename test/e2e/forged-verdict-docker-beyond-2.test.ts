import { BEYOND_THE_TESTS, forgedVerdictSuite } from '../helpers/forged-verdict';

// A model that forges its verdict (issue 34): attacks beyond the tests, in a container (half 2 of 2).
forgedVerdictSuite(['docker'], BEYOND_THE_TESTS.slice(2));
