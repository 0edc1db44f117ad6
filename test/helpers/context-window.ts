import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EngineEvent } from '../../source/engine/events';
import { runCli } from './cli';
import type { FakeModelServer } from './fake-model-server';
import { shopScratch } from './shop-scratch';
import { BIG_MODULE, BIG_MODULE_PATH, readingSession, readTurn, wrongSubmission } from './reading-model';

// Sessions longer than the model's context window, against a fake server with a 16k window: shared by test/e2e/context-window*.test.ts.
// A whole TENET session of 90 model calls (15 pre-generation rounds, 5 refinement attempts of 15)
// by a model that keeps reading a large file, against a fake server with a 16k-token window that
// refuses a longer request as each API does: tenet must keep every request inside the window.

export const WINDOW = 16_384;
export const MAX_TOKENS = 4096;
export const read = readTurn;
export const submit = wrongSubmission;
export const TURNS = readingSession();

export const { repo, start, envFor } = shopScratch('tenet-context-window-');
writeFileSync(join(repo.dir, BIG_MODULE_PATH), BIG_MODULE);
let server: FakeModelServer | undefined;

export const MODELS = { openai: 'gpt-4.1-mini', anthropic: 'claude-sonnet-4-6' } as const;

export async function session(provider: keyof typeof MODELS) {
  server = await start(TURNS, { window: WINDOW });
  const env = envFor(server, provider, { sessions: provider });
  const out = await runCli(
    [
      'run',
      '--repo',
      repo.dir,
      '--target',
      'shop/cart.py::Cart.total',
      '--blank',
      '-T',
      '2',
      '--provider',
      provider,
      '--model',
      MODELS[provider],
      '--context-window',
      String(WINDOW),
      '--json',
      '--tests',
      'tests/test_cart.py',
    ],
    { env },
  );
  const events = out.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as EngineEvent);
  return { out, events, fake: server };
}
