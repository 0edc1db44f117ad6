/**
 * The end-to-end project runs every pytest without the plugins the interpreter would load by
 * itself (vitest.config.ts sets PYTEST_DISABLE_PLUGIN_AUTOLOAD=1): the fixtures use none, and on
 * this machine's python3 Hypothesis, anyio (with trio) and pytest-benchmark cost a trivial run half
 * its start (0.58 → 0.28 CPU-s), over a thousand times a suite. What does use them loads them again:
 * the tests of THM under plugins, and the differential check on real packages, run as their users run them.
 */
const NO_AUTOLOAD = 'PYTEST_DISABLE_PLUGIN_AUTOLOAD';

/** This file's tests run pytest with the interpreter's plugins, as a user's pytest would. */
export function withInterpreterPlugins(): void {
  delete process.env[NO_AUTOLOAD];
}

/** `env` with the interpreter's plugins loaded by every pytest started under it. */
export function envWithInterpreterPlugins(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const { [NO_AUTOLOAD]: _autoloadOff, ...withPlugins } = env;
  return withPlugins;
}
