/**
 * Loads a TUI module so that Ink draws what the developer asked for. Ink and chalk decide once,
 * when they are first imported, from the environment:
 * - CI / CONTINUOUS_INTEGRATION make Ink draw only the final frame; a developer whose shell sets CI
 *   (dev containers, a debugging shell on a CI runner) would stare at a blank terminal. tenet only
 *   loads the TUI when stdout is a terminal, so they are hidden for the import.
 * - NO_COLOR (https://no-color.org: set and not empty) is not read by chalk, only FORCE_COLOR is:
 *   FORCE_COLOR=0 stands in for it during the import. Without it, `colour` asks for colours whatever
 *   stdout is (FORCE_COLOR=3): a cast is drawn for a terminal, though written to a file.
 * Everything is put back at once: pytest and the user's tests still see the environment unchanged.
 */
export async function importTui<T>(load: () => Promise<T>, options: { colour?: boolean } = {}): Promise<T> {
  const names = ['CI', 'CONTINUOUS_INTEGRATION', 'FORCE_COLOR'] as const;
  const saved = names.map((name) => [name, process.env[name]] as const);
  delete process.env.CI;
  delete process.env.CONTINUOUS_INTEGRATION;
  if (process.env.NO_COLOR) process.env.FORCE_COLOR = '0';
  // `colour`: drawn for a terminal that is not this process's stdout (a cast written to a file).
  else if (options.colour) process.env.FORCE_COLOR = '3';
  try {
    return await load();
  } finally {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}
