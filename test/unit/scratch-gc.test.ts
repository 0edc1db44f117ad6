import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { collectScratch } from '../../source/engine/workspace/scratch-gc';

const tmp = mkdtempSync(join(tmpdir(), 'tenet-scratch-gc-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('scratch folders without an owner (made by a tenet from before owners were written)', () => {
  it("are taken when they look like tenet's and nothing touched them for an hour; anything else stays", () => {
    mkdirSync(join(tmp, 'tenet-Old001', 'proj', '.tenet'), { recursive: true });
    mkdirSync(join(tmp, 'tenet-python-check-Old002'));
    mkdirSync(join(tmp, 'tenet-Usr003', 'proj'), { recursive: true }); // no .tenet: not known to be tenet's
    writeFileSync(join(tmp, 'tenet-python-check-Usr004'), 'a file, not a folder');
    const dryRun = collectScratch({ tmp, dryRun: true });
    expect(dryRun.removed).toEqual([]); // just made: may be a running tenet's
    const later = collectScratch({ tmp, now: Date.now() + 2 * 3600_000 });
    expect(later.removed.map((f) => f.path).sort()).toEqual([
      join(tmp, 'tenet-Old001'),
      join(tmp, 'tenet-python-check-Old002'),
    ]);
    expect(later.removed[0]!.reason).toBe('left by a tenet from before owners were recorded, untouched for an hour');
    expect(existsSync(join(tmp, 'tenet-Old001'))).toBe(false);
    expect(existsSync(join(tmp, 'tenet-Usr003'))).toBe(true);
    expect(existsSync(join(tmp, 'tenet-python-check-Usr004'))).toBe(true);
  });
});

describe('a scratch folder that cannot be removed', () => {
  it('is reported as kept, with why and what to do, and the others are still collected', () => {
    const dir = mkdtempSync(join(tmp, 'stuck-'));
    // Two copies left for the next run; a test made a file in one of them immutable (chattr +i).
    mkdirSync(join(dir, 'tenet-copy-0123456789abcdef', 'proj'), { recursive: true });
    mkdirSync(join(dir, 'tenet-copy-fedcba9876543210', 'proj'), { recursive: true });
    const stuck = join(dir, 'tenet-copy-0123456789abcdef', 'proj', 'stuck.txt');
    writeFileSync(stuck, 'left by a test\n');
    const immutable = spawnSync('chattr', ['+i', stuck]);
    try {
      expect(immutable.status, `chattr: ${immutable.stderr}`).toBe(0);
      const { removed, kept } = collectScratch({ tmp: dir });
      expect(removed.map((f) => f.path)).toEqual([join(dir, 'tenet-copy-fedcba9876543210')]);
      expect(kept).toHaveLength(1);
      expect(kept[0]!.path).toBe(join(dir, 'tenet-copy-0123456789abcdef'));
      expect(kept[0]!.reason).toBe(
        `could not be removed (${stuck} cannot be deleted): remove it by hand (an immutable file needs \`chattr -i\` first)`,
      );
    } finally {
      spawnSync('chattr', ['-i', stuck]);
    }
  });
});
