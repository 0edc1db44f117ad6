import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openToOwner, removeTree } from '../../source/engine/workspace/remove-tree';

const scratch = mkdtempSync(join(tmpdir(), 'tenet-remove-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('a workspace whose folders the code in it closed', () => {
  it('is opened to its owner folder by folder, never through a link, and removed', async () => {
    const outside = join(scratch, 'outside');
    mkdirSync(outside, { mode: 0o755 });
    const root = join(scratch, 'workspace');
    mkdirSync(join(root, 'tests', 'deep'), { recursive: true });
    writeFileSync(join(root, 'tests', 'deep', 'test_x.py'), '');
    symlinkSync(outside, join(root, 'tests', 'out'));
    chmodSync(join(root, 'tests', 'deep'), 0o000);
    chmodSync(join(root, 'tests'), 0o311);
    openToOwner(root);
    expect(statSync(join(root, 'tests')).mode & 0o777).toBe(0o700);
    expect(statSync(join(root, 'tests', 'deep')).mode & 0o777).toBe(0o700);
    expect(statSync(outside).mode & 0o777).toBe(0o755);
    chmodSync(join(root, 'tests'), 0o311);
    await removeTree(root);
    expect(existsSync(root)).toBe(false);
    expect(existsSync(outside)).toBe(true);
  });
});
