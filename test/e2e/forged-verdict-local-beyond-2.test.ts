import { BEYOND_THE_TESTS, forgedVerdictSuite } from '../helpers/forged-verdict';

// A model that forges its verdict (issue 34): attacks beyond the tests, under the default (bubblewrap) sandbox (half 2 of 2).
forgedVerdictSuite(['local'], BEYOND_THE_TESTS.slice(2));
