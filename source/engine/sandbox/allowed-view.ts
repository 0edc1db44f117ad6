import { existsSync, lstatSync, readdirSync, readlinkSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { type EtcEntry, type Shown, stagedEtc } from './etc-view';

/**
 * What a confined process sees of this machine: an allow-list, not a read-only view of `/`. A
 * read-only bind of `/` still shows every file (`~/.ssh`, `/etc/shadow`, tenet's state) and lets a
 * process `connect()` to every Unix socket on the host (the Docker daemon's is root on it). Here a
 * process sees the system's programs and libraries, the parts of `/etc` programs read, the
 * interpreter with the folders on its sys.path, the paths named on purpose (`--read`), its
 * workspace, and private `/tmp`, `/proc` and `/dev`: nothing else.
 */

/** The system's own folders: programs and libraries, shown read-only (or as the links they are). */
const SYSTEM = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

/**
 * What programs read in /etc: users and groups by name, name resolution, certificates, the dynamic
 * linker's cache, time zone, Debian's alternatives and its Python's own site configuration, fonts,
 * MIME and file types, the line editor pdb uses. Never `shadow`, `gshadow`, `sudoers`, `ssh`,
 * `ssl/private` or anything with credentials in it (`gitconfig`, `pip.conf`, `environment`).
 */
const ETC = [
  'passwd',
  'group',
  'hosts',
  'hostname',
  'resolv.conf',
  'nsswitch.conf',
  'host.conf',
  'gai.conf',
  'networks',
  'protocols',
  'services',
  'ssl/certs',
  'ssl/openssl.cnf',
  'ca-certificates',
  'pki/tls/certs',
  'pki/ca-trust',
  'crypto-policies',
  'ld.so.cache',
  'ld.so.conf',
  'ld.so.conf.d',
  'localtime',
  'timezone',
  'alternatives',
  'fonts',
  'mime.types',
  'magic',
  'magic.mime',
  'inputrc',
  'terminfo',
  'os-release',
  'debian_version',
  'locale.alias',
  'shells',
  'xml',
  'mtab',
];

/** Debian's and Fedora's Python read their site configuration from /etc/python3 and /etc/python3.X. */
function pythonEtc(): string[] {
  try {
    return readdirSync('/etc')
      .filter((name) => /^python3(\.\d+)?$/.test(name))
      .sort();
  } catch {
    return [];
  }
}

/** Whether `path` is in the system's folders, which every confined process is shown. */
export function isSystemPath(path: string): boolean {
  return SYSTEM.some((system) => within(path, system));
}

/** Whether `path` is `folder` or inside it. */
export function within(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

function lstat(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/** Where `path` really is (links resolved), if it exists. */
export function real(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/**
 * How `path` is shown read-only where it is: a link stays a link (merged /usr's `/bin -> usr/bin`)
 * where its target is shown, a link whose target would not be (`/etc/resolv.conf -> /run/…`) is
 * shown as the file it leads to, anything else as itself.
 */
function shownAs(path: string, shown: (target: string) => boolean): Shown | undefined {
  const info = lstat(path);
  if (!info) return undefined;
  if (!info.isSymbolicLink()) return { kind: 'copy' };
  const target = readlinkSync(path);
  const absolute = resolve(dirname(path), target);
  if (shown(absolute) || absolute.startsWith('/proc/')) return { kind: 'link', target };
  const file = real(path);
  return file ? { kind: 'file', from: file } : undefined;
}

/** bwrap arguments that show `path` as shownAs says. */
function show(path: string, shown: (target: string) => boolean): string[] {
  const as = shownAs(path, shown);
  if (!as) return [];
  if (as.kind === 'link') return ['--symlink', as.target, path];
  return ['--ro-bind', as.kind === 'file' ? as.from : path, path];
}

/** The allowed entries of /etc, each as it is shown. */
function etcEntries(): EtcEntry[] {
  return [...ETC, ...pythonEtc()].flatMap((name) => {
    const as = shownAs(`/etc/${name}`, isSystemPath);
    return as ? [{ name, ...as }] : [];
  });
}

/**
 * The paths a confined process must read beyond the system's (the interpreter's prefix and
 * sys.path, `--read`), each once: those under another given path or under the system's folders
 * go with it, and parents come before children (a later bind of a parent would hide a child).
 * A path's real location is shown too where a link leads elsewhere (a virtual environment's
 * `python` → the interpreter it was made from).
 */
export function readableRoots(paths: readonly string[]): string[] {
  const candidates = new Set<string>();
  for (const given of paths) {
    if (!given || !isAbsolute(given)) continue;
    for (const path of [resolve(given), real(given)])
      if (path && path !== '/' && existsSync(path)) candidates.add(path);
  }
  const sorted = [...candidates].sort((a, b) => a.length - b.length || a.localeCompare(b));
  const roots: string[] = [];
  for (const path of sorted) {
    if (isSystemPath(path)) continue;
    if (roots.some((root) => within(path, root))) continue;
    roots.push(path);
  }
  return roots;
}

export interface ViewOptions {
  /** Writable: the workspace (or the folder a check runs in). */
  workdir: string;
  /** Shown read-only: the interpreter's folders, `--read` paths (see readableRoots). */
  reads: readonly string[];
  /** Unix sockets of the host inside the shown paths: each is covered by an empty device. */
  sockets: readonly string[];
}

/** The bwrap arguments that show the system's folders (programs and libraries) and nothing else. */
export function systemView(): string[] {
  return SYSTEM.flatMap((system) => show(system, isSystemPath));
}

/** The bwrap arguments of the allow-list (see the top of this file). */
export function allowedView(options: ViewOptions): string[] {
  const workdir = resolve(options.workdir);
  const systemShown = isSystemPath;
  const args: string[] = [];
  args.push(...systemView());
  // One bind of a staged copy is cheaper than a bind per entry (see etc-view.ts).
  const entries = etcEntries();
  const staged = stagedEtc(entries);
  if (staged) args.push('--ro-bind', staged, '/etc');
  else for (const { name } of entries) args.push(...show(`/etc/${name}`, systemShown));
  args.push('--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp');
  for (const root of readableRoots(options.reads)) {
    if (within(root, workdir) || within(workdir, root)) continue;
    // A path that leads elsewhere (a link, or a folder reached through one) is shown as a link to
    // where it leads, which readableRoots shows too: bound at its own path, it would show that
    // folder a second time, and the sockets covered there (found under the real path) open.
    const leadsTo = real(root);
    if (leadsTo && leadsTo !== root) args.push('--symlink', leadsTo, root);
    else args.push('--ro-bind', root, root);
  }
  args.push('--bind', workdir, workdir);
  for (const socket of options.sockets) if (!within(socket, workdir)) args.push('--ro-bind', '/dev/null', socket);
  return args;
}
