import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allowedView, readableRoots } from '../../source/engine/sandbox/allowed-view';
import { confinedArgv } from '../../source/engine/sandbox/confinement';
import { type EtcEntry, stagedEtc } from '../../source/engine/sandbox/etc-view';
import { unixSocketFilter } from '../../source/engine/sandbox/seccomp';

/** The targets of bwrap's binds and links in `args`: what the confined process sees. */
const shown = (args: string[]) =>
  args.flatMap((arg, i) => (['--ro-bind', '--bind', '--symlink'].includes(arg) ? [args[i + 2]!] : []));

describe('the allow-list a confined process sees', () => {
  it('the system, the parts of /etc programs read, the workspace; never shadow, ssh, /run, /home or /root', () => {
    const args = allowedView({ workdir: '/tmp/ws', reads: [], sockets: [] });
    const view = shown(args);
    expect(view).toContain('/usr');
    expect(view).toContain('/tmp/ws');
    // /etc is one staged folder: what programs read is in it, and nothing with a credential.
    const etc = args[args.indexOf('/etc') - 1]!;
    expect(etc).not.toBe('/etc');
    expect(readFileSync(join(etc, 'passwd'), 'utf8')).toBe(readFileSync('/etc/passwd', 'utf8'));
    for (const name of ['shadow', 'gshadow', 'ssh', 'ssl/private', 'sudoers'])
      expect(existsSync(join(etc, name))).toBe(false);
    expect(statSync(etc).mode & 0o077).toBe(0);
    for (const hidden of ['/', '/run', '/var/run', '/home', '/root']) expect(view).not.toContain(hidden);
  });

  it('shows a path once, under its nearest shown parent, and nothing under the system folders again', () => {
    expect(readableRoots(['/usr/lib/python3', '/tmp', '/tmp/a', '/tmp/a/b', 'relative'])).toEqual(['/tmp']);
  });

  it('covers a host socket under a shown folder, and a hidden folder inside one', () => {
    const shownFolder = mkdtempSync(join(tmpdir(), 'tenet-view-'));
    mkdirSync(join(shownFolder, 'state'));
    const argv = confinedArgv(
      { bwrap: '/usr/bin/bwrap', network: false, reads: [shownFolder], hidden: [join(shownFolder, 'state')] },
      { workdir: '/var/tmp/ws', cwd: '/var/tmp/ws', argv: ['true'], reads: [] },
    );
    rmSync(shownFolder, { recursive: true, force: true });
    expect(argv.join(' ')).toContain(`--tmpfs ${join(shownFolder, 'state')}`);
    expect(argv).toContain('--unshare-net');
    expect(
      allowedView({ workdir: '/tmp/ws', reads: ['/var/tmp'], sockets: ['/var/tmp/agent.sock'] }).join(' '),
    ).toContain('--ro-bind /dev/null /var/tmp/agent.sock');
  });

  it('shows a path that leads elsewhere as a link to where it leads, and covers what is hidden there where it really is', () => {
    const base = mkdtempSync(join(tmpdir(), 'tenet-view-link-'));
    try {
      mkdirSync(join(base, 'real', 'home', 'state'), { recursive: true });
      symlinkSync(join(base, 'real'), join(base, 'link'));
      const shownHome = join(base, 'link', 'home');
      const argv = confinedArgv(
        { bwrap: '/usr/bin/bwrap', network: false, reads: [shownHome], hidden: [join(shownHome, 'state')] },
        { workdir: '/var/tmp/ws', cwd: '/var/tmp/ws', argv: ['true'], reads: [] },
      ).join(' ');
      // Bound at its own path, the folder would be shown twice, and what is covered under one name open under the other.
      expect(argv).toContain(`--symlink ${join(base, 'real', 'home')} ${shownHome}`);
      expect(argv).toContain(`--ro-bind ${join(base, 'real', 'home')} ${join(base, 'real', 'home')}`);
      expect(argv).toContain(`--tmpfs ${join(base, 'real', 'home', 'state')}`);
      expect(argv).not.toContain(`--tmpfs ${join(shownHome, 'state')}`);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });

  it('makes a new copy of /etc when an entry changes, and binds entry by entry when it cannot make one', () => {
    const base = mkdtempSync(join(tmpdir(), 'tenet-etc-test-'));
    try {
      const entries: EtcEntry[] = [{ name: 'passwd', kind: 'copy' }];
      const first = stagedEtc(entries, base);
      expect(stagedEtc(entries, base)).toBe(first);
      // A copy made days ago for what /etc was then goes when a new one is made; a recent one stays.
      const old = join(base, 'tenet-etc-0-old');
      mkdirSync(old);
      utimesSync(old, new Date(Date.now() - 3 * 86_400_000), new Date(Date.now() - 3 * 86_400_000));
      // Another entry (as a changed file would): another folder.
      expect(stagedEtc([...entries, { name: 'group', kind: 'copy' }], base)).not.toBe(first);
      expect(existsSync(old)).toBe(false);
      expect(existsSync(first!)).toBe(true);
      // A file it cannot copy: no folder, and nothing half-made left behind.
      expect(stagedEtc([{ name: 'no-such-entry', kind: 'copy' }], base)).toBeUndefined();
      expect(readdirSync(base).filter((name) => name.includes('making'))).toEqual([]);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});

describe('the seccomp filter of --network', () => {
  it('is ten instructions of classic BPF on x86_64 and arm64, refusing socket(AF_UNIX)', () => {
    for (const arch of ['x64', 'arm64'] as const) {
      const filter = unixSocketFilter(arch)!;
      expect(filter.length).toBe(80);
      // The refusal: SECCOMP_RET_ERRNO | EPERM, returned by the eighth instruction.
      expect(filter.readUInt32LE(7 * 8 + 4)).toBe(0x00050001);
    }
    expect(unixSocketFilter('ia32')).toBeUndefined();
  });
});
