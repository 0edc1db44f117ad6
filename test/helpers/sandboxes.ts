import { describe } from 'vitest';
import Docker from 'dockerode';
import { LOCAL, type SandboxSpec } from '../../source/engine/sandbox/create-sandbox';
import { containerLimits } from '../../source/engine/sandbox/docker/limits';
import { helpersTagPrefix } from '../../source/engine/sandbox/docker/helpers-image';
import { DEFAULT_IMAGE, LABELS } from '../../source/engine/sandbox/docker/names';
import { awaitImageBuild } from './image-build';

/**
 * The sandboxes the parametrised suites run in: always local, and Docker when an engine with the
 * default image answers. `.ci/run` sets TENET_TEST_DOCKER=require, which turns a missing engine or
 * image into a failure instead of a skip; there the global setup builds a missing image
 * (test/setup/docker-image.ts), and a Docker test waits for that build before it looks.
 */
async function dockerProblem(): Promise<string | undefined> {
  const docker = new Docker();
  try {
    await docker.ping();
  } catch (error) {
    return `no Docker daemon answers at ${process.env.DOCKER_HOST ?? '/var/run/docker.sock'} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); start one with \`dockerd &\``;
  }
  const build = await awaitImageBuild();
  if (build && build.code !== 0)
    return `\`tenet image build\` failed in the global setup (exit ${build.code}):\n${build.stderr.trim().split('\n').slice(-15).join('\n')}`;
  try {
    await docker.getImage(DEFAULT_IMAGE).inspect();
  } catch {
    return `the image ${DEFAULT_IMAGE} is missing; build it with \`node dist/tenet.js image build\``;
  }
  return undefined;
}

export const DOCKER_PROBLEM = await dockerProblem();
if (DOCKER_PROBLEM && process.env.TENET_TEST_DOCKER === 'require')
  throw new Error(`Docker tests are required here (TENET_TEST_DOCKER=require) but ${DOCKER_PROBLEM}`);
if (DOCKER_PROBLEM) console.warn(`[tenet tests] Docker sandbox tests skipped: ${DOCKER_PROBLEM}`);

/** Small limits for tests: two fixture projects never need more. */
export const DOCKER: SandboxSpec = {
  kind: 'docker',
  image: DEFAULT_IMAGE,
  limits: containerLimits({ memory: '1g', pids: 256 }),
};

/** `[name, spec]` rows for describe.each: local, and docker when available. */
export const SANDBOXES: [string, SandboxSpec][] = DOCKER_PROBLEM
  ? [['local', LOCAL]]
  : [
      ['local', LOCAL],
      ['docker', DOCKER],
    ];

/** describe for Docker-only suites: skipped, with the reason in its name, when there is no engine. */
export const describeDocker = DOCKER_PROBLEM
  ? (name: string, fn: () => void) => describe.skip(`${name} [skipped: ${DOCKER_PROBLEM}]`, fn)
  : describe;

/** The images with tenet's helpers that sandboxes made from the image `baseId` (see helpers-image.ts). */
export async function helperImagesOf(docker: Docker, baseId: string): Promise<Docker.ImageInfo[]> {
  const images = (await docker.listImages({
    filters: JSON.stringify({ label: [LABELS.helpers] }),
  })) as Docker.ImageInfo[];
  const prefix = helpersTagPrefix(baseId);
  return images.filter((image) => image.RepoTags?.some((tag) => tag.startsWith(prefix)));
}

/** Removes an image a test made, and the images with tenet's helpers that sandboxes made from it. */
export async function removeTestImage(docker: Docker, name: string): Promise<void> {
  const id = await docker
    .getImage(name)
    .inspect()
    .then((info) => info.Id)
    .catch(() => undefined);
  if (!id) return;
  for (const image of await helperImagesOf(docker, id))
    await docker
      .getImage(image.Id)
      .remove({ force: true })
      .catch(() => undefined);
  await docker
    .getImage(id)
    .remove({ force: true })
    .catch(() => undefined);
}
