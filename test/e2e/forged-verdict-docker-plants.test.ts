import { WORKSPACE_PLANTS, forgedVerdictSuite } from '../helpers/forged-verdict';

// A model that forges its verdict (issue 34): attacks that plant in the workspace, in a container.
forgedVerdictSuite(['docker'], WORKSPACE_PLANTS);
