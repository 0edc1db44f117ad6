import { BEYOND_THE_TESTS, forgedVerdictSuite } from '../helpers/forged-verdict';

// A model that forges its verdict (issue 34): attacks beyond the tests, under the default (bubblewrap) sandbox.
forgedVerdictSuite(['local'], BEYOND_THE_TESTS);
