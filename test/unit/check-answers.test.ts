import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { keepCheck, recalledCheck } from '../../source/engine/task/check-answers';
import { interpreterKey } from '../../source/engine/thm/reach-fresh';

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
  const withPath = { ...plain, PYTHONPATH: site };
  const noBytecode = { ...plain, PYTHONDONTWRITEBYTECODE: '1', PYTHONUNBUFFERED: '1' };

  it('keeps one answer per set of PYTHON* variables, both recalled in turn', () => {
    keepCheck(python, plain, checked);
    keepCheck(python, withPath, { ...checked, version: '3.11.8' });
    expect(recalledCheck(python, plain)?.version).toBe('3.11.7');
    expect(recalledCheck(python, withPath)?.version).toBe('3.11.8');
    expect(recalledCheck(python, { ...plain, PYTHONPATH: dir })).toBeUndefined();
  });

  it('shares one answer, and one reach index, between environments that differ only in where bytecode goes or buffering', () => {
    keepCheck(python, plain, checked);
    expect(recalledCheck(python, noBytecode)?.version).toBe('3.11.7');
    const interpreter = { path: python, dirs: [site] };
    expect(interpreterKey(interpreter, noBytecode)).toBe(interpreterKey(interpreter, plain));
    // What changes the code a run imports or what it does still makes the index stale.
    expect(interpreterKey(interpreter, withPath)).not.toBe(interpreterKey(interpreter, plain));
    expect(interpreterKey(interpreter, { ...plain, PYTHONWARNINGS: 'error' })).not.toBe(
      interpreterKey(interpreter, plain),
    );
  });

  it('is forgotten when a folder of its sys.path changes', () => {
    keepCheck(python, plain, checked);
    mkdirSync(join(site, 'newpackage'));
    expect(recalledCheck(python, plain)).toBeUndefined();
  });
});
