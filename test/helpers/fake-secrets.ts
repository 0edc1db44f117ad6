/**
 * Strings shaped like the secrets tenet recognises (engine/secrets), made at run time from a
 * fixed seed: random-looking as real ones are, and never a real secret in the repository.
 */

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UPPER_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** `length` characters of `alphabet`, the same for the same seed. */
export function randomText(length: number, seed: number, alphabet = ALNUM): string {
  let state = seed >>> 0 || 1;
  let out = '';
  for (let i = 0; i < length; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    out += alphabet[state % alphabet.length];
  }
  return out;
}

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

function privateKeyBlock(seed: number): string {
  const body = Buffer.from(randomText(600, seed)).toString('base64');
  const lines = body.match(/.{1,64}/g)!.join('\n');
  return `-----BEGIN RSA PRIVATE KEY-----\n${lines}\n-----END RSA PRIVATE KEY-----`;
}

/** One secret of each shape the issue names, by a name that says which (and the label tenet gives it). */
export function fakeSecrets(seed = 43): Record<string, { secret: string; label: string }> {
  const r = (length: number, n: number, alphabet?: string) => randomText(length, seed * 100 + n, alphabet);
  return {
    'GitHub classic token': { secret: `ghp_${r(36, 1)}`, label: 'github-token' },
    'GitHub OAuth token': { secret: `gho_${r(36, 2)}`, label: 'github-token' },
    'GitHub app token': { secret: `ghs_${r(36, 3)}`, label: 'github-token' },
    'GitHub user token': { secret: `ghu_${r(36, 4)}`, label: 'github-token' },
    'GitHub fine-grained token': { secret: `github_pat_11${r(20, 5)}_${r(59, 6)}`, label: 'github-token' },
    'OpenAI key': { secret: `sk-proj-${r(48, 7)}`, label: 'model-key' },
    'Anthropic key': { secret: `sk-ant-api03-${r(93, 8)}AA`, label: 'model-key' },
    'AWS access key id': { secret: `AKIA${r(16, 9, UPPER_DIGITS)}`, label: 'aws-key' },
    'AWS temporary key id': { secret: `ASIA${r(16, 10, UPPER_DIGITS)}`, label: 'aws-key' },
    'Slack bot token': { secret: `xoxb-${r(12, 11, '0123456789')}-${r(24, 12)}`, label: 'slack-token' },
    'Slack session token': { secret: `xoxs-${r(12, 13, '0123456789')}-${r(24, 14)}`, label: 'slack-token' },
    'Google API key': { secret: `AIza${r(35, 15)}`, label: 'google-key' },
    'Stripe secret key': { secret: `sk_live_${r(24, 16)}`, label: 'stripe-key' },
    'Stripe restricted key': { secret: `rk_live_${r(24, 17)}`, label: 'stripe-key' },
    'JSON web token': {
      secret: `${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url({ sub: r(10, 18) })}.${r(43, 19)}`,
      label: 'jwt',
    },
    'private key': { secret: privateKeyBlock(seed), label: 'private-key' },
    'bearer token': { secret: r(40, 20), label: 'bearer-token' },
  };
}

/** How each secret is written in a file: the bearer token in its header, the rest as they are. */
export const inFile = (name: string, secret: string) =>
  name === 'bearer token' ? `Authorization: Bearer ${secret}` : secret;
