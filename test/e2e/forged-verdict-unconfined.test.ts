import { forgedVerdictSuite } from '../helpers/forged-verdict';

// A model that forges its verdict (issue 34), unconfined: the attacks that plant outside the
// workspace reach it there, and the guards make the verdict unverified.
forgedVerdictSuite(['local-unconfined']);
