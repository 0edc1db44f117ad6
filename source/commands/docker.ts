import { buildImage, checkedTag } from '../engine/sandbox/docker/build-image';
import { buildRunnerImage } from '../engine/swarm/runner-image';
import { collectSwarmGarbage } from '../engine/swarm/swarm-gc';
import { collectGarbage } from '../engine/sandbox/docker/gc';
import { collectEmptySessions } from '../engine/session/empty-sessions';
import { collectScratch } from '../engine/workspace/scratch-gc';
import { root as sessionsRoot } from './sessions-root';
import { EXIT } from '../engine/exit-codes';

/** `tenet image build`: the default Python image, offline, from Debian packages. */
export async function imageBuildCommand(options: {
  tag?: string;
  suite?: string;
  mirror?: string;
  packages?: string[];
  dockerHost?: string;
  quiet?: boolean;
}): Promise<number> {
  const result = await buildImage({
    ...(options.tag ? { tag: options.tag } : {}),
    ...(options.suite ? { suite: options.suite } : {}),
    ...(options.mirror ? { mirror: options.mirror } : {}),
    ...(options.packages?.length ? { packages: options.packages } : {}),
    ...(options.dockerHost ? { host: options.dockerHost } : {}),
    // debootstrap says a line per package; the ones that say what it is doing are enough.
    onLine: options.quiet
      ? undefined
      : (line) =>
          /^(I: (Retrieving InRelease|Validating Packages|Installing core|Configuring required|Base system)|debootstrap|docker import)/.test(
            line,
          ) && process.stderr.write(`${line}\n`),
  });
  process.stdout.write(
    `built ${result.tag} (${(result.sizeBytes / 1e6).toFixed(0)} MB) in ${result.seconds.toFixed(0)} s\n`,
  );
  return EXIT.pass;
}

/** `tenet image build --runner`: the image `bench run --on swarm` runs tasks in. */
export async function runnerBuildCommand(options: {
  tag?: string;
  base: string;
  dockerHost?: string;
  quiet?: boolean;
}): Promise<number> {
  const result = await buildRunnerImage({
    ...(options.tag ? { tag: checkedTag(options.tag) } : {}),
    base: options.base,
    ...(options.dockerHost ? { host: options.dockerHost } : {}),
    onLine: options.quiet ? undefined : (line) => /^Step \d+/.test(line) && process.stderr.write(`${line}\n`),
  });
  process.stdout.write(
    `built ${result.tag} (${(result.sizeBytes / 1e6).toFixed(0)} MB) in ${result.seconds.toFixed(0)} s\n`,
  );
  return EXIT.pass;
}

/**
 * `tenet gc`: what killed tenets left behind: containers (when a Docker engine answers), scratch
 * workspaces and interpreter-check folders in the temp folder, and sessions killed before they
 * started.
 */
export async function gcCommand(options: {
  dockerHost?: string;
  all?: boolean;
  dryRun?: boolean;
  json?: boolean;
  sessionsDir?: string;
}): Promise<number> {
  let containers: Awaited<ReturnType<typeof collectGarbage>> = { removed: [], kept: [], images: [] };
  let dockerSkipped: string | undefined;
  try {
    containers = await collectGarbage({
      ...(options.dockerHost ? { host: options.dockerHost } : {}),
      all: !!options.all,
      dryRun: !!options.dryRun,
    });
  } catch (error) {
    // Without an engine there are no containers to clean; an engine named on purpose must answer.
    if (options.dockerHost) throw error;
    dockerSkipped = (error as Error).message;
  }
  let swarm: Awaited<ReturnType<typeof collectSwarmGarbage>> = { removed: [], kept: [] };
  if (!dockerSkipped)
    swarm = await collectSwarmGarbage({
      ...(options.dockerHost ? { host: options.dockerHost } : {}),
      all: !!options.all,
      dryRun: !!options.dryRun,
    });
  const scratch = collectScratch({ dryRun: !!options.dryRun });
  const root = await sessionsRoot(options.sessionsDir);
  const sessions = collectEmptySessions(root, { dryRun: !!options.dryRun });
  if (options.json) {
    process.stdout.write(
      `${JSON.stringify({ ...containers, swarm, ...(dockerSkipped ? { dockerSkipped } : {}), scratch, sessions: { root, removed: sessions } })}\n`,
    );
    return EXIT.pass;
  }
  const verb = options.dryRun ? 'would remove' : 'removed';
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
  for (const c of containers.removed)
    process.stdout.write(`${verb} ${c.name} (session ${c.session || '?'}, ${c.state})\n`);
  for (const c of containers.kept)
    process.stdout.write(`kept ${c.name}: its tenet (${c.owner}) is still running; --all removes it too\n`);
  for (const image of containers.images)
    process.stdout.write(`${verb} image ${image.name} (tenet's helpers: ${image.reason})\n`);
  for (const o of swarm.removed)
    process.stdout.write(`${verb} swarm ${o.kind} ${o.name} (of a bench run by ${o.owner || '?'})\n`);
  for (const o of swarm.kept)
    process.stdout.write(
      `kept swarm ${o.kind} ${o.name}: its bench run (${o.owner}) is still going; --all removes it too\n`,
    );
  if (dockerSkipped)
    process.stdout.write(`containers not checked: no Docker engine answers (${dockerSkipped.split('\n')[0]})\n`);
  for (const f of scratch.removed) process.stdout.write(`${verb} ${f.kind} ${f.path} (${mb(f.bytes)}, ${f.reason})\n`);
  for (const f of scratch.kept) process.stdout.write(`kept ${f.kind} ${f.path}: ${f.reason}\n`);
  for (const s of sessions) process.stdout.write(`${verb} session ${s.id} (${s.reason})\n`);
  if (
    !containers.removed.length &&
    !containers.kept.length &&
    !containers.images.length &&
    !swarm.removed.length &&
    !swarm.kept.length &&
    !scratch.removed.length &&
    !scratch.kept.length &&
    !sessions.length
  )
    process.stdout.write('Nothing left by tenet.\n');
  else if (scratch.removed.length)
    process.stdout.write(
      `${options.dryRun ? 'would free' : 'freed'} ${mb(scratch.removed.reduce((sum, f) => sum + f.bytes, 0))} of scratch copies\n`,
    );
  return EXIT.pass;
}
