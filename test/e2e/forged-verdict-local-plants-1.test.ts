import { WORKSPACE_PLANTS, forgedVerdictSuite } from '../helpers/forged-verdict';

// A model that forges its verdict (issue 34): attacks that plant in the workspace, under the default (bubblewrap) sandbox (half 1 of 2).
forgedVerdictSuite(['local'], WORKSPACE_PLANTS.slice(0, 2));
