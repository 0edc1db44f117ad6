/**
 * Loads a TUI module so that Ink draws live frames. Ink decides once, when it is first imported,
 * from the CI / CONTINUOUS_INTEGRATION variables, to draw only the final frame; a developer whose
 * shell sets CI (dev containers, a debugging shell on a CI runner) would stare at a blank terminal.
 * tenet only loads the TUI when stdout is a terminal, so the variables are hidden for the import
 * and put back at once: pytest and the user's tests still see the environment unchanged.
 */
export async function importTui<T>(load: () => Promise<T>): Promise<T> {
  const hidden = ['CI', 'CONTINUOUS_INTEGRATION'] as const;
  const saved = hidden.map((name) => [name, process.env[name]] as const);
  for (const name of hidden) delete process.env[name];
  try {
    return await load();
  } finally {
    for (const [name, value] of saved) if (value !== undefined) process.env[name] = value;
  }
}
