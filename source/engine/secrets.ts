import { findSecretShapes } from './secret-shapes';

/**
 * Which environment variables hold secrets. Their values are redacted wherever tenet stores or
 * prints text, and they never reach a process of the sandbox (nor do the providers' own
 * variables): the agent's commands and the code it writes run without them.
 */
export const SECRET_NAME = /(_KEY|_APIKEY|_TOKEN|_SECRET|_CREDENTIALS?)$|PASSWORD|PASSWD|^(OPENAI|ANTHROPIC)_API_KEY$/i;

/** The model providers' settings (keys, base URLs, organisations): tenet's business, not the sandbox's. */
const PROVIDER_VARIABLE = /^(OPENAI|ANTHROPIC)_/i;

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/**
 * The token-shaped parts of a value, whatever the variable holding them is called (`GH_AUTH=ghp_…`,
 * a URL with a token in it; see engine/secret-shapes): each is a secret wherever it appears.
 */
export function secretShapes(value: string | undefined): string[] {
  return value ? findSecretShapes(value).map(({ start, end }) => value.slice(start, end)) : [];
}

/** A variable that holds a secret: by its name, or by the shape of what it holds. */
export function isSecret(name: string, value: string | undefined): boolean {
  return isSecretName(name) || secretShapes(value).length > 0;
}

/**
 * The environment a sandbox's processes start with: `env` without secrets and provider variables,
 * except the names in `passEnv` (`--pass-env NAME`: a token the tests need, let through on purpose).
 */
export function scrubEnv(env: NodeJS.ProcessEnv, passEnv: readonly string[] = []): NodeJS.ProcessEnv {
  const pass = new Set(passEnv);
  return Object.fromEntries(
    Object.entries(env).filter(
      ([name, value]) => pass.has(name) || !(isSecret(name, value) || PROVIDER_VARIABLE.test(name)),
    ),
  );
}
