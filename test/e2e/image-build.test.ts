import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import Docker from 'dockerode';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli';
import { DEFAULT_IMAGE } from '../../source/engine/sandbox/docker/names';
import { awaitImageBuild } from '../helpers/image-build';
import { DOCKER_PROBLEM } from '../helpers/sandboxes';

/**
 * `tenet image build`: a real build (debootstrap from the mirror apt uses, then `docker import`).
 * Like the other Docker tests it needs an engine (TENET_TEST_DOCKER=require makes a missing one a
 * failure); it also needs root and debootstrap, which .ci/run has.
 */
const BUILD_PROBLEM =
  DOCKER_PROBLEM ??
  (process.getuid?.() !== 0
    ? 'building needs root'
    : !['/usr/sbin/debootstrap', '/usr/bin/debootstrap'].some((p) => existsSync(p))
      ? 'debootstrap is not installed'
      : undefined);
if (BUILD_PROBLEM && process.env.TENET_TEST_DOCKER === 'require')
  throw new Error(`the image build test is required here (TENET_TEST_DOCKER=require) but ${BUILD_PROBLEM}`);
if (BUILD_PROBLEM) console.warn(`[tenet tests] tenet image build skipped: ${BUILD_PROBLEM}`);

/**
 * The build checked. Where the global setup built the default image (CI: a fresh engine, Docker
 * tests required), it is that build, `tenet image build` run plainly: a second build would cost
 * another 50 CPU-seconds and prove nothing the first does not. Elsewhere the test builds one of
 * its own, under a tag of its own that is removed afterwards.
 */
async function theBuild(): Promise<{ tag: string; own: boolean; code: number; stdout: string; stderr: string }> {
  const global = await awaitImageBuild();
  if (global) return { tag: DEFAULT_IMAGE, own: false, ...global };
  const tag = `tenet-image-build-test:${process.pid}`;
  const result = await runCli(['image', 'build', '--tag', tag]);
  return { tag, own: true, code: result.code ?? -1, stdout: result.stdout, stderr: result.stderr };
}

describe('tenet image build: bad input', () => {
  it('refuses a tag Docker would refuse, before a minute of building, and says what a tag looks like', async () => {
    const result = await runCli(['image', 'build', '--tag', 'Not A Tag']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--tag "Not A Tag" is not an image name Docker accepts.');
    expect(result.stderr).toContain('e.g. --tag myteam/tenet-python:3.11');
  });
});

describe.skipIf(!!BUILD_PROBLEM)(`tenet image build${BUILD_PROBLEM ? ` [skipped: ${BUILD_PROBLEM}]` : ''}`, () => {
  let ownTag: string | undefined;
  afterAll(async () => {
    if (!ownTag) return;
    await new Docker()
      .getImage(ownTag)
      .remove({ force: true })
      .catch(() => undefined);
  });

  it('builds an image with python3 and pytest, a /workspace the test user owns, and says what it built', async () => {
    const result = await theBuild();
    const { tag } = result;
    if (result.own) ownTag = tag;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^built ${tag.replace(/[.:]/g, '\\$&')} \\(\\d+ MB\\) in \\d+ s\\n$`));
    // What it says it is doing, a line per step, not one per package.
    expect(result.stderr).toContain('docker import as');
    const info = await new Docker().getImage(tag).inspect();
    expect(info.Config.WorkingDir).toBe('/workspace');
    expect(info.Config.Env).toEqual(expect.arrayContaining(['HOME=/tmp', 'LANG=C.UTF-8']));
    const inside = execFileSync(
      'docker',
      [
        'run',
        '--rm',
        '--network',
        'none',
        tag,
        'sh',
        '-c',
        'python3 -m pytest --version 2>&1; stat -c %u:%g /workspace; ls /usr/share/doc | wc -l',
      ],
      { encoding: 'utf8' },
    );
    const [pytest, owner, docs] = inside.trim().split('\n');
    expect(pytest).toMatch(/^pytest \d+\.\d+/);
    expect(owner).toBe('65534:65534');
    // Trimmed: no documentation left behind.
    expect(docs).toBe('0');
  }, 600_000);
});
