import { existsSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder of the default image's build that the global setup started (test/setup/docker-image.ts). */
    imageBuild?: string;
  }
}

/** How `tenet image build` ended in the global setup, and what it said. */
export interface ImageBuildResult {
  code: number;
  stdout: string;
  stderr: string;
  seconds: number;
}

/** The file, in the build's folder, that holds its ImageBuildResult once it has ended. */
export const IMAGE_BUILD_RESULT = 'result.json';

/** A build takes about a minute alone, several on a loaded machine; past this it is stuck. */
const LONGEST_BUILD_MS = 15 * 60_000;

/**
 * The end of the default image's build that the global setup started, or undefined where it
 * started none (the image was there, or Docker tests are not required).
 */
export async function awaitImageBuild(): Promise<ImageBuildResult | undefined> {
  const dir = inject('imageBuild');
  if (!dir) return undefined;
  const file = join(dir, IMAGE_BUILD_RESULT);
  const deadline = Date.now() + LONGEST_BUILD_MS;
  while (!existsSync(file)) {
    if (Date.now() > deadline)
      throw new Error(
        `tenet image build, started by the global setup, had not ended after ${LONGEST_BUILD_MS / 60_000} min`,
      );
    await sleep(500);
  }
  return JSON.parse(readFileSync(file, 'utf8')) as ImageBuildResult;
}
