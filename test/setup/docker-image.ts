import { spawn } from 'node:child_process';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Docker from 'dockerode';
import type { TestProject } from 'vitest/node';
import { DEFAULT_IMAGE } from '../../source/engine/sandbox/docker/names';
import { CLI } from '../helpers/fixtures';
import { IMAGE_BUILD_RESULT, type ImageBuildResult } from '../helpers/image-build';

/**
 * Where the Docker tests are required (TENET_TEST_DOCKER=require, as .ci/run sets) and the engine
 * has no default image yet, the image is built here: `tenet image build` run as a user runs it,
 * in the background while the unit tests and the first end-to-end files run (global setups run
 * before any test). The Docker tests wait for it (test/helpers/sandboxes.ts), and the test of the
 * build itself checks this build (test/e2e/image-build.test.ts) instead of making a second one: a
 * build is about 50 CPU-seconds of debootstrap and `docker import`, and CI made two.
 * Elsewhere (a developer's machine, an engine that has the image) nothing is built here.
 */
export default async function buildDefaultImage(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (process.env.TENET_TEST_DOCKER !== 'require') return undefined;
  const docker = new Docker();
  try {
    await docker.ping();
  } catch {
    return undefined; // the Docker tests say that no engine answers
  }
  const present = await docker
    .getImage(DEFAULT_IMAGE)
    .inspect()
    .then(() => true)
    .catch(() => false);
  if (present) return undefined;

  const dir = mkdtempSync(join(tmpdir(), 'tenet-image-build-'));
  const started = Date.now();
  const child = spawn(process.execPath, [CLI, 'image', 'build'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const ended = new Promise<void>((resolve) => {
    const settle = (code: number) => {
      const result: ImageBuildResult = { code, stdout, stderr, seconds: (Date.now() - started) / 1000 };
      // Whole or not at all: a reader never sees half a result.
      writeFileSync(join(dir, 'partial.json'), JSON.stringify(result));
      renameSync(join(dir, 'partial.json'), join(dir, IMAGE_BUILD_RESULT));
      resolve();
    };
    child.on('error', (error) => {
      stderr += `could not start tenet image build: ${error.message}\n`;
      settle(-1);
    });
    child.on('close', (code, signal) => settle(code ?? (signal ? 128 : 1)));
  });
  project.provide('imageBuild', dir);
  return async () => {
    // A run that ends early (a failure with --bail, Ctrl-C) does not wait for the build: it stops
    // it, and tenet removes its half-made root folder as it stops.
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await ended;
    rmSync(dir, { recursive: true, force: true });
  };
}
