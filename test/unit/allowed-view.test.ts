import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allowedView, readableRoots } from '../../source/engine/sandbox/allowed-view';
import { confinedArgv } from '../../source/engine/sandbox/confinement';
import { unixSocketFilter } from '../../source/engine/sandbox/seccomp';

/** The targets of bwrap's binds and links in `args`: what the confined process sees. */
const shown = (args: string[]) =>
  args.flatMap((arg, i) => (['--ro-bind', '--bind', '--symlink'].includes(arg) ? [args[i + 2]!] : []));

describe('the allow-list a confined process sees', () => {
  it('the system, the parts of /etc programs read, the workspace; never shadow, ssh, /run, /home or /root', () => {
    const view = shown(allowedView({ workdir: '/tmp/ws', reads: [], sockets: [] }));
    expect(view).toContain('/usr');
    expect(view).toContain('/etc/passwd');
    expect(view).toContain('/tmp/ws');
    for (const hidden of [
      '/',
      '/etc/shadow',
      '/etc/gshadow',
      '/etc/ssh',
      '/etc/ssl/private',
      '/run',
      '/var/run',
      '/home',
      '/root',
    ])
      expect(view).not.toContain(hidden);
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
