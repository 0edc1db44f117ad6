/** tenet's version, as package.json has it (a unit test keeps the two equal): `--version`, the runner image's tag. */
export const TENET_VERSION = '0.1.0';
