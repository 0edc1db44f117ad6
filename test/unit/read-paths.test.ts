import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describeSandbox, recordedSandbox, sandboxSpec, sandboxWords } from '../../source/engine/sandbox/sandbox-spec';

const dir = mkdtempSync(join(tmpdir(), 'tenet-read-paths-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('paths shown to the confined sandbox on purpose', () => {
  it('the user config readPaths, then --read, absolute, once each', () => {
    const spec = sandboxSpec({ read: [dir, join(dir, '.')] }, { readPaths: ['/etc/hostname'] });
    expect(spec).toEqual({ kind: 'local', reads: ['/etc/hostname', dir] });
  });

  it('are recorded, read back on resume, and said in the sandbox words', () => {
    const recorded = describeSandbox(sandboxSpec({ read: [dir], network: true }));
    expect(recorded).toEqual({ kind: 'local', confinement: 'bubblewrap', network: true, reads: [dir] });
    expect(recordedSandbox(recorded)).toEqual({ kind: 'local', network: true, reads: [dir] });
    expect(sandboxWords(recorded)).toBe(`local (bubblewrap, with network, reading ${dir})`);
  });

  it('refuses a path that is not there, and / (the whole machine)', () => {
    expect(() => sandboxSpec({ read: [join(dir, 'nowhere')] })).toThrow(/there is no such file or folder/);
    expect(() => sandboxSpec({ read: ['/'] })).toThrow(/that would show the whole machine/);
  });
});
