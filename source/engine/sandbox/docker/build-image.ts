import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { chown, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TenetError } from '../../errors';
import { onShutdown } from '../../lifecycle';
import { connectDocker } from './connect';
import { DEFAULT_IMAGE } from './names';

export interface ImageBuildOptions {
  tag?: string;
  /** Debian release to bootstrap (default bookworm, the release whose python3-pytest is ≥ 7). */
  suite?: string;
  /** Debian mirror (default: the one apt on this machine uses, else deb.debian.org). */
  mirror?: string;
  /** More Debian packages for the image (e.g. python3-numpy for a project that needs it). */
  packages?: string[];
  host?: string;
  onLine?: (line: string) => void;
}

/** The first Debian mirror in apt's sources on this machine, in either file format. */
export function aptMirror(): string | undefined {
  const files = [
    '/etc/apt/sources.list',
    ...(existsSync('/etc/apt/sources.list.d')
      ? readdirSync('/etc/apt/sources.list.d').map((f) => join('/etc/apt/sources.list.d', f))
      : []),
  ];
  for (const file of files) {
    if (!existsSync(file)) continue;
    const text = readFileSync(file, 'utf8');
    const deb822 = /^URIs:\s*(\S+)/m.exec(text);
    const oneLine = /^deb\s+(?:\[[^\]]*\]\s+)?(\S+)/m.exec(text);
    const url = deb822?.[1] ?? oneLine?.[1];
    if (url && !/security/.test(url)) return url;
  }
  return undefined;
}

function run(command: string, args: string[], onLine?: (line: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let tail = '';
    const take = (chunk: Buffer) => {
      const text = chunk.toString();
      tail = (tail + text).slice(-4000);
      for (const line of text.split('\n')) if (line.trim()) onLine?.(line);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('error', (error) => reject(error));
    child.on('close', (code) =>
      code === 0
        ? resolve()
        : reject(new TenetError(`${command} failed (exit ${code}):\n${tail.trim().split('\n').slice(-15).join('\n')}`)),
    );
  });
}

/** What debootstrap leaves that a test image never needs: package caches, docs, man pages, locales. */
const TRIM = ['var/cache/apt/archives', 'var/lib/apt/lists', 'usr/share/doc', 'usr/share/man', 'usr/share/info'];

async function trim(root: string): Promise<void> {
  for (const rel of TRIM) {
    const dir = join(root, rel);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir))
      if (name !== 'partial' && name !== 'lock') await rm(join(dir, name), { recursive: true, force: true });
  }
  const locales = join(root, 'usr/share/locale');
  if (existsSync(locales))
    for (const name of readdirSync(locales))
      if (name !== 'locale.alias') await rm(join(locales, name), { recursive: true, force: true });
}

/** Docker's reference grammar: `[host[:port]/]path[/path…][:tag]`, path parts lower-case. */
const COMPONENT = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
const REFERENCE = new RegExp(
  `^(?:[a-zA-Z0-9.-]+(?::[0-9]+)?/)?${COMPONENT}(?:/${COMPONENT})*(?::[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?$`,
);

/** An image name Docker accepts, checked before a minute of building. */
export function checkedTag(tag: string): string {
  if (!REFERENCE.test(tag)) {
    throw new TenetError(
      `--tag ${JSON.stringify(tag)} is not an image name Docker accepts.`,
      'use lower-case letters, digits and . _ - in the name, and at most one :tag, e.g. --tag myteam/tenet-python:3.11',
    );
  }
  return tag;
}

/**
 * `tenet image build`: the default image, made offline from Debian packages — debootstrap a
 * minimal bookworm with python3 and python3-pytest into a folder, trim it, and `docker import` it.
 * About a minute; needs root (debootstrap) and a reachable Debian mirror, not a registry.
 */
export async function buildImage(
  options: ImageBuildOptions = {},
): Promise<{ tag: string; sizeBytes: number; seconds: number }> {
  const started = Date.now();
  const tag = checkedTag(options.tag ?? DEFAULT_IMAGE);
  if (process.getuid?.() !== 0)
    throw new TenetError(
      'Building the image needs root (debootstrap creates device files and owners).',
      'run `sudo tenet image build`, or use --image with an image you have',
    );
  if (!['/usr/sbin/debootstrap', '/usr/bin/debootstrap'].some((p) => existsSync(p))) {
    throw new TenetError('debootstrap is not installed.', 'apt-get install -y debootstrap');
  }
  const { docker } = await connectDocker(options.host);
  const mirror = options.mirror ?? aptMirror() ?? 'http://deb.debian.org/debian';
  const packages = ['python3', 'python3-pytest', ...(options.packages ?? [])];
  const root = await mkdtemp(join(tmpdir(), 'tenet-rootfs-'));
  const unregister = onShutdown(() => void rm(root, { recursive: true, force: true }));
  let tar: ReturnType<typeof spawn> | undefined;
  try {
    options.onLine?.(`debootstrap ${options.suite ?? 'bookworm'} from ${mirror} with ${packages.join(', ')}`);
    await run(
      'debootstrap',
      ['--variant=minbase', `--include=${packages.join(',')}`, options.suite ?? 'bookworm', root, mirror],
      options.onLine,
    );
    await trim(root);
    // The workspace volume takes this folder's owner: the unprivileged user tests run as.
    await mkdir(join(root, 'workspace'), { recursive: true });
    await chown(join(root, 'workspace'), 65534, 65534);
    options.onLine?.(`docker import as ${tag}`);
    tar = spawn('tar', ['-C', root, '--numeric-owner', '-c', '.'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const [repo, version] = tag.includes(':')
      ? [tag.slice(0, tag.lastIndexOf(':')), tag.slice(tag.lastIndexOf(':') + 1)]
      : [tag, 'latest'];
    const stream = (await docker.importImage(
      tar.stdout as never,
      { repo, tag: version, changes: ['ENV HOME=/tmp', 'ENV LANG=C.UTF-8', 'WORKDIR /workspace'] } as never,
    )) as unknown as NodeJS.ReadableStream;
    await new Promise<void>((resolve, reject) => {
      docker.modem.followProgress(stream, (error: Error | null, output: { error?: string }[]) => {
        const failed = output?.find((o) => o.error);
        if (error || failed) reject(new TenetError(`docker import failed: ${error?.message ?? failed?.error}`));
        else resolve();
      });
    });
    const info = await docker.getImage(tag).inspect();
    return { tag, sizeBytes: info.Size, seconds: (Date.now() - started) / 1000 };
  } finally {
    // A refused import leaves tar blocked on a pipe nobody reads: it would keep tenet alive.
    tar?.kill();
    unregister();
    await rm(root, { recursive: true, force: true });
  }
}
