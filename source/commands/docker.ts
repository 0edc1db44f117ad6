import { buildImage } from '../engine/sandbox/docker/build-image';
import { collectGarbage } from '../engine/sandbox/docker/gc';

/** `tenet image build`: the default Python image, offline, from Debian packages. */
export async function imageBuildCommand(options: { tag?: string; suite?: string; mirror?: string; packages?: string[]; dockerHost?: string; quiet?: boolean }): Promise<number> {
  const result = await buildImage({
    ...(options.tag ? { tag: options.tag } : {}),
    ...(options.suite ? { suite: options.suite } : {}),
    ...(options.mirror ? { mirror: options.mirror } : {}),
    ...(options.packages?.length ? { packages: options.packages } : {}),
    ...(options.dockerHost ? { host: options.dockerHost } : {}),
    // debootstrap says a line per package; the ones that say what it is doing are enough.
    onLine: options.quiet ? undefined : (line) => /^(I: (Retrieving InRelease|Validating Packages|Installing core|Configuring required|Base system)|debootstrap|docker import)/.test(line) && process.stderr.write(`${line}\n`),
  });
  process.stdout.write(`built ${result.tag} (${(result.sizeBytes / 1e6).toFixed(0)} MB) in ${result.seconds.toFixed(0)} s\n`);
  return 0;
}

/** `tenet gc`: remove containers that a killed tenet left behind. */
export async function gcCommand(options: { dockerHost?: string; all?: boolean; dryRun?: boolean; json?: boolean }): Promise<number> {
  const { removed, kept } = await collectGarbage({ ...(options.dockerHost ? { host: options.dockerHost } : {}), all: !!options.all, dryRun: !!options.dryRun });
  if (options.json) {
    process.stdout.write(`${JSON.stringify({ removed, kept })}\n`);
    return 0;
  }
  const verb = options.dryRun ? 'would remove' : 'removed';
  for (const c of removed) process.stdout.write(`${verb} ${c.name} (session ${c.session || '?'}, ${c.state})\n`);
  for (const c of kept) process.stdout.write(`kept ${c.name}: its tenet (${c.owner}) is still running; --all removes it too\n`);
  if (!removed.length && !kept.length) process.stdout.write('No containers left by tenet.\n');
  return 0;
}
