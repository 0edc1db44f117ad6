import { join } from 'node:path';
import { afterAll } from 'vitest';
import { startFakeModelServer } from './fake-model-server';
import type { FakeModelServer } from './fake-model-server';
import { copyFixture } from './fixtures';
import { scratchWithServers } from './steering-scratch';

export type FakeProvider = 'openai' | 'anthropic';

/**
 * For an end-to-end test file that runs tenet on a copy of the shop fixture against fake model
 * servers: the copy and a scratch folder, both removed after the file's tests; `start`, a fake
 * server closed when the test that started it ends; `envFor`, the environment that points tenet
 * at a server, its sessions and its (empty) config folder in the scratch folder.
 */
export function shopScratch(prefix: string) {
  const { scratch, track } = scratchWithServers(prefix);
  const repo = copyFixture('shop');
  afterAll(() => repo.cleanup());
  const start = async (...args: Parameters<typeof startFakeModelServer>): Promise<FakeModelServer> =>
    track(await startFakeModelServer(...args));
  /** `sessions` and `config`: folders of the scratch folder (default `sessions`, `no-config`). */
  const envFor = (
    server: FakeModelServer,
    provider: FakeProvider = 'openai',
    folders: { sessions?: string; config?: string } = {},
  ): NodeJS.ProcessEnv => ({
    TENET_SESSIONS_DIR: join(scratch, folders.sessions ?? 'sessions'),
    XDG_CONFIG_HOME: join(scratch, folders.config ?? 'no-config'),
    ...(provider === 'openai'
      ? { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: `${server.url}/v1` }
      : { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url }),
  });
  return { scratch, repo, start, envFor };
}
