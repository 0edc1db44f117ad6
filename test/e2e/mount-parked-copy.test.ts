import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { SandboxSpec } from '../../source/engine/sandbox/create-sandbox';
import { openTask } from '../../source/engine/task/open-task';
import { parkedCopyPath } from '../../source/engine/workspace/parked-copy';
import { copyFixture } from '../helpers/fixtures';
import { DOCKER, describeDocker } from '../helpers/sandboxes';

/**
 * A `--mount` run lends its copy to a container, whose code writes there: that copy is never kept
 * for the next run. Nor does such a run take the copy an earlier local run left: it copies afresh
 * and the kept copy waits for the next local run.
 */
describeDocker('--mount and the copy kept between runs', () => {
  const repo = copyFixture('shop');
  afterAll(() => repo.cleanup());
  const target = 'shop/pricing.py::apply_discount';

  it('a mounted run leaves the kept copy of a local run where it is, and keeps none of its own', async () => {
    // Bytecode a run compiled is what a kept copy keeps of its own (see copy-tree.ts): it tells
    // which run took the copy the local run left.
    const marker = 'shop/__pycache__/cart.cpython-311.pyc';
    const local = await openTask({ repo: repo.dir, target, blank: true });
    mkdirSync(local.workspace.path('shop/__pycache__'), { recursive: true });
    writeFileSync(local.workspace.path(marker), 'compiled by the local run');
    await local.dispose();
    const parked = parkedCopyPath(tmpdir(), repo.dir);
    expect(existsSync(join(parked, 'shop', marker))).toBe(true);

    const spec = { ...(DOCKER as Extract<SandboxSpec, { kind: 'docker' }>), mount: true };
    const mounted = await openTask({
      repo: repo.dir,
      target,
      blank: true,
      sandbox: spec,
      session: 'mount-parked-copy-test',
    });
    try {
      expect(existsSync(mounted.workspace.path(marker))).toBe(false);
      expect(existsSync(join(parked, 'shop', marker))).toBe(true);
      mkdirSync(mounted.workspace.path('shop/__pycache__'), { recursive: true });
      writeFileSync(mounted.workspace.path('shop/__pycache__/tree.cpython-311.pyc'), 'as if written in the container');
    } finally {
      await mounted.dispose();
    }

    const next = await openTask({ repo: repo.dir, target, blank: true });
    try {
      expect(existsSync(next.workspace.path(marker))).toBe(true);
      expect(existsSync(next.workspace.path('shop/__pycache__/tree.cpython-311.pyc'))).toBe(false);
    } finally {
      await next.dispose();
    }
  }, 120_000);
});
