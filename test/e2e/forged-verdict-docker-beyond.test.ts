import { BEYOND_THE_TESTS, forgedVerdictSuite } from '../helpers/forged-verdict';

// A model that forges its verdict (issue 34): attacks beyond the tests, in a container.
forgedVerdictSuite(['docker'], BEYOND_THE_TESTS);
