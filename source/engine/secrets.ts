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
 * Tokens by their shape, whatever the variable holding them is called (`GH_AUTH=ghp_…`, a URL with
 * a token in it): GitHub's (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`, `github_pat_`), OpenAI's and
 * Anthropic's keys (`sk-`, `sk-ant-`), AWS access key ids (`AKIA…`, `ASIA…`), Slack's (`xoxb-`,
 * `xoxp-`, `xoxa-`, `xoxs-`) and JSON web tokens (`eyJ….eyJ….…`).
 */
const SECRET_SHAPE =
  /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|sk-(?:ant-)?[A-Za-z0-9_-]{16,}|(?:AKIA|ASIA)[0-9A-Z]{16}|xox[bpas]-[A-Za-z0-9-]{10,}|eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,})/g;

/** The token-shaped parts of a value (see SECRET_SHAPE): each is a secret wherever it appears. */
export function secretShapes(value: string | undefined): string[] {
  return value ? [...value.matchAll(SECRET_SHAPE)].map((match) => match[0]) : [];
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
