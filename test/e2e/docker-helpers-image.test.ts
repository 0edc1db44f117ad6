import Docker from 'dockerode';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { pythonHelpersDir } from '../../source/engine/assets';
import { openSandbox, type SandboxSpec } from '../../source/engine/sandbox/create-sandbox';
import { DEFAULT_IMAGE, HELPERS_IMAGE_REPO, LABELS } from '../../source/engine/sandbox/docker/names';
import type { DockerSandbox } from '../../source/engine/sandbox/docker/docker-sandbox';
import { runCli } from '../helpers/cli';
import { FIXTURES } from '../helpers/fixtures';
import { DOCKER, describeDocker, helperImagesOf, removeTestImage } from '../helpers/sandboxes';

const SHOP = join(FIXTURES, 'shop');
const docker = new Docker();

describeDocker("tenet's helpers in the sandbox's image", () => {
  // A base image of this file's own (other files use the default image meanwhile).
  const base = `tenet-test-helpers-base:${process.pid}`;
  let baseId = '';
  beforeAll(async () => {
    const container = await docker.createContainer({ Image: DEFAULT_IMAGE, Cmd: ['true'], NetworkDisabled: true });
    await container.commit({ repo: 'tenet-test-helpers-base', tag: String(process.pid) });
    await container.remove({ force: true });
    baseId = (await docker.getImage(base).inspect()).Id;
  }, 60_000);
  afterAll(async () => {
    if (baseId) await removeTestImage(docker, baseId);
  });

  it('is made once per base image, holds the helpers read-only, and `tenet gc` removes it once the base has no name', async () => {
    const spec = { ...DOCKER, image: base } as SandboxSpec;
    const first = (await openSandbox(spec, SHOP, 'helpers-image-test')) as DockerSandbox;
    const second = (await openSandbox(spec, SHOP, 'helpers-image-test')) as DockerSandbox;
    try {
      const made = await helperImagesOf(docker, baseId);
      expect(made).toHaveLength(1);
      const [one, two] = await Promise.all([first.container.inspect(), second.container.inspect()]);
      expect(one.Image).toBe(made[0]!.Id);
      expect(two.Image).toBe(made[0]!.Id);
      // The containers carry their own session's labels, not those of the container the image was made from.
      expect(one.Config.Labels[LABELS.session]).toBe('helpers-image-test');
      // The helpers the container runs are the ones on this machine, root's, on the read-only root.
      const listed = await first.run([
        'sh',
        '-c',
        'stat -c %u /opt/tenet/python/_tenet_launch.py; sha256sum < /opt/tenet/python/_tenet_launch.py; echo x >> /opt/tenet/python/_tenet_launch.py',
      ]);
      const [owner, sum] = listed.stdout.trim().split('\n');
      expect(owner).toBe('0');
      expect(sum?.split(' ')[0]).toBe(
        createHash('sha256')
          .update(readFileSync(join(pythonHelpersDir(), '_tenet_launch.py')))
          .digest('hex'),
      );
      expect(listed.exitCode).not.toBe(0);
      expect(listed.stderr).toMatch(/Read-only file system|Permission denied/);
    } finally {
      await first.dispose();
      await second.dispose();
    }

    // While the base has its name, gc leaves the image; once it has none, gc removes it.
    const kept = await runCli(['gc', '--dry-run', '--json'], { env: { DOCKER_HOST: '' } });
    expect(JSON.parse(kept.stdout).images.map((i: { id: string }) => i.id)).not.toContain(
      (await helperImagesOf(docker, baseId))[0]!.Id,
    );
    await docker.getImage(base).remove();
    const gc = await runCli(['gc'], { env: { DOCKER_HOST: '' } });
    expect(gc.code, gc.stderr).toBe(0);
    expect(gc.stdout).toMatch(
      new RegExp(
        `^removed image ${HELPERS_IMAGE_REPO}:${baseId.slice(7, 19)}-[0-9a-f]{16} \\(tenet's helpers: its base image has no name any more\\)$`,
        'm',
      ),
    );
    expect(await helperImagesOf(docker, baseId)).toHaveLength(0);
  }, 120_000);
});
