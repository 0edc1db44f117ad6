import { rules as secretlintRules } from '@secretlint/secretlint-rule-preset-recommend';

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
 * a URL with a token in it; see findSecretShapes below): each is a secret wherever it appears.
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

/**
 * Secrets recognised by their shape, wherever they appear (a token in a repository file that the
 * agent's shell printed, a key in a test's output). Two sources, merged:
 *
 * - secretlint's recommended rule preset (maintained, one dependency-free bundle), driven
 *   synchronously through its rule interface: exact formats of GitHub, AWS secret access keys,
 *   Slack, Stripe, OpenAI, Anthropic, npm, GitLab, private keys, database URLs with a password
 *   and two dozen more. Its comment filter (`secretlint-disable`) is left out: the text
 *   is untrusted, and a comment in it must not switch redaction off.
 * - tenet's own patterns for what the preset leaves out or recognises only in its exact current
 *   format: Google API keys (`AIza…`), JSON web tokens, `Authorization: Bearer …`, model keys of
 *   any length (`sk-…`, `sk-ant-…`), GitHub tokens of any length, Slack's `xoxs-`, AWS access key
 *   ids (`AKIA…`, `ASIA…`; the preset finds them only together with account ids, which are no
 *   secret and fill AWS code), and private-key blocks that are cut short (no END line) or escaped
 *   inside JSON.
 */

export interface ShapeKind {
  /** In the redaction mark: `[redacted:github-token]`. */
  label: string;
  /** In sentences: `a string shaped like a GitHub token`. */
  noun: string;
}

export interface FoundShape {
  start: number;
  end: number;
  kind: ShapeKind;
}

const kind = (label: string, noun: string): ShapeKind => ({ label, noun });

/** secretlint's rule ids (after `@secretlint/secretlint-rule-`), in tenet's words. */
const SECRETLINT_KINDS: Record<string, ShapeKind> = {
  aws: kind('aws-key', 'an AWS key'),
  gcp: kind('google-key', 'a Google service-account key'),
  privatekey: kind('private-key', 'a private key'),
  npm: kind('npm-token', 'an npm token'),
  basicauth: kind('url-password', 'a password in a URL'),
  slack: kind('slack-token', 'a Slack token'),
  stripe: kind('stripe-key', 'a Stripe key'),
  github: kind('github-token', 'a GitHub token'),
  openai: kind('model-key', 'a model provider key'),
  anthropic: kind('model-key', 'a model provider key'),
  'database-connection-string': kind('database-password', 'a database password'),
};

const secretlintKind = (id: string): ShapeKind => {
  const short = id.replace('@secretlint/secretlint-rule-', '');
  return SECRETLINT_KINDS[short] ?? kind(`${short}-token`, `a ${short} token`);
};

/** What a secretlint rule reports: the range of the secret in the text it was given. */
interface Report {
  range: readonly [number, number];
}

interface RuleHandler {
  file?: (source: { content: string; filePath: undefined; ext: string; contentType: 'text' }) => void;
}

interface RuleCreator {
  meta: { id: string };
  create(
    context: { createTranslator: () => () => string; report: (report: Report) => void; ignore: () => void },
    options: Record<string, unknown>,
  ): RuleHandler;
}

/** The rules' handlers, made once; `sink` is where the scan in progress collects what they report. */
let sink: FoundShape[] = [];
const handlers = (secretlintRules as unknown as RuleCreator[])
  .filter((rule) => !rule.meta.id.endsWith('filter-comments'))
  .map((rule) => {
    const shape = secretlintKind(rule.meta.id);
    return rule.create(
      {
        createTranslator: () => () => '',
        report: ({ range }) => sink.push({ start: range[0], end: range[1], kind: shape }),
        ignore: () => {},
      },
      {},
    );
  });

/** A run of ten or more letters and digits that mixes both: random, not words (`sk-learn-notes`). */
const RANDOM_RUN = /(?=[A-Za-z0-9]*\d)(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]{10,}/;

interface OwnShape {
  kind: ShapeKind;
  pattern: RegExp;
  /** The capture group that is the secret (the token after `Bearer `); the whole match by default. */
  group?: number;
  /** A test the secret must pass besides the pattern (random-looking, a key block with a body). */
  accept?: (secret: string) => boolean;
}

const looksRandom = (secret: string) => RANDOM_RUN.test(secret);

/** A key block's base64 (its BEGIN and END lines and JSON's `\n` escapes aside): code that names the markers has none. */
const hasKeyBody = (block: string) =>
  (block.replace(/-----[A-Z0-9 ]+-----|\\+[nrt]/g, '').match(/[A-Za-z0-9+/=]/g)?.length ?? 0) >= 40;

const OWN_SHAPES: OwnShape[] = [
  { kind: SECRETLINT_KINDS.github!, pattern: /\bgh[pousr]_[A-Za-z0-9]{20,}/g, accept: looksRandom },
  { kind: SECRETLINT_KINDS.github!, pattern: /\bgithub_pat_[A-Za-z0-9_]{20,}/g },
  { kind: SECRETLINT_KINDS.openai!, pattern: /\bsk-(?:ant-)?[A-Za-z0-9_-]{16,}/g, accept: looksRandom },
  { kind: SECRETLINT_KINDS.slack!, pattern: /\bxox[abprs]-[A-Za-z0-9-]{10,}/g },
  { kind: kind('google-key', 'a Google API key'), pattern: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g },
  { kind: SECRETLINT_KINDS.stripe!, pattern: /\b[sr]k_live_[A-Za-z0-9]{16,}/g },
  {
    kind: kind('jwt', 'a JSON web token'),
    pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
  },
  {
    kind: kind('bearer-token', 'a bearer token'),
    // The quotes may be escaped (`\"`), once or more: a header in code, inside a tool call's JSON.
    pattern: /\bAuthorization\\*["']?\s*[:=]\s*\\*["']?Bearer\s+([A-Za-z0-9._~+/=-]{8,})/gi,
    group: 1,
  },
  {
    // AWS access key ids (secretlint scans them only with account ids, which are no secret).
    // The documentation's examples end in EXAMPLE.
    kind: SECRETLINT_KINDS.aws!,
    pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
    accept: (secret) => !secret.endsWith('EXAMPLE'),
  },
  {
    // A whole block, also one cut short (a `head` of the file), as far as its base64 goes; inside
    // JSON text its line breaks are `\n` escapes. The body allows the headers of an encrypted key.
    kind: SECRETLINT_KINDS.privatekey!,
    pattern:
      /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY( BLOCK)?-----(?:[A-Za-z0-9+/=\s]|\\+[nrt]|(?:Proc-Type|DEK-Info):[^\n\\]*)*(?:-----END \1PRIVATE KEY\2-----)?/g,
    accept: hasKeyBody,
  },
];

function ownShapes(text: string): FoundShape[] {
  const found: FoundShape[] = [];
  for (const { kind, pattern, group, accept } of OWN_SHAPES) {
    for (const match of text.matchAll(pattern)) {
      const secret = group ? match[group]! : match[0];
      if (accept && !accept(secret)) continue;
      const start = match.index + (group ? match[0].lastIndexOf(secret) : 0);
      found.push({ start, end: start + secret.length, kind });
    }
  }
  return found;
}

/** Overlapping finds become one (the first one's kind): a token two rules both recognise is one secret. */
function merged(found: FoundShape[]): FoundShape[] {
  const out: FoundShape[] = [];
  for (const shape of found.sort((a, b) => a.start - b.start || b.end - a.end)) {
    const last = out.at(-1);
    if (last && shape.start < last.end) last.end = Math.max(last.end, shape.end);
    else out.push({ ...shape });
  }
  return out;
}

/** No shape is shorter (`http://a:b@c.io`, an npm `_authToken=…`): shorter text is not looked at. */
const SHORTEST_SECRET = 12;

/** Every secret-shaped part of `text`, in order, none overlapping. */
export function findSecretShapes(text: string): FoundShape[] {
  if (text.length < SHORTEST_SECRET) return [];
  sink = [];
  const source = { content: text, filePath: undefined, ext: '', contentType: 'text' as const };
  for (const handler of handlers) handler.file?.(source);
  const fromRules = sink;
  sink = [];
  return merged([...fromRules, ...ownShapes(text)]);
}

/** `text` with every secret-shaped part replaced by `[redacted:KIND]`. */
export function redactShapes(text: string): string {
  const found = findSecretShapes(text);
  if (!found.length) return text;
  let out = '';
  let at = 0;
  for (const { start, end, kind } of found) {
    out += `${text.slice(at, start)}[redacted:${kind.label}]`;
    at = end;
  }
  return out + text.slice(at);
}
