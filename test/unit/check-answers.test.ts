import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { keepCheck, recalledCheck } from '../../source/engine/task/check-answers';

// The interpreter check is kept between runs; two environments that differ in a PYTHON* variable
// each keep their own answer instead of replacing the other's (which cost every run a check).
const dir = realpathSync(mkdtempSync(join(tmpdir(), 'tenet-check-answers-')));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('interpreter checks kept between runs', () => {
  const python = join(dir, 'bin', 'python3');
  const site = join(dir, 'site-packages');
  mkdirSync(join(dir, 'bin'), { recursive: true });
  mkdirSync(site, { recursive: true });
  writeFileSync(python, '#!/bin/sh\n');
  chmodSync(python, 0o755);
  const checked = { version: '3.11.7', path: python, pytest: '9.0.0', dirs: [site] };
  const plain = { HOME: dir, XDG_STATE_HOME: join(dir, 'state') };
  const noBytecode = { ...plain, PYTHONDONTWRITEBYTECODE: '1' };

  it('keeps one answer per set of PYTHON* variables, both recalled in turn', () => {
    keepCheck(python, plain, checked);
    keepCheck(python, noBytecode, { ...checked, version: '3.11.8' });
    expect(recalledCheck(python, plain)?.version).toBe('3.11.7');
    expect(recalledCheck(python, noBytecode)?.version).toBe('3.11.8');
    expect(recalledCheck(python, { ...plain, PYTHONPATH: dir })).toBeUndefined();
  });

  it('is forgotten when a folder of its sys.path changes', () => {
    keepCheck(python, plain, checked);
    mkdirSync(join(site, 'newpackage'));
    expect(recalledCheck(python, plain)).toBeUndefined();
  });
});
