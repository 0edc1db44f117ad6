import { createHash, randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { basename } from 'node:path';
import type Docker from 'dockerode';
import { taskId, taskRepo, type BenchTask } from '../bench/task';
import { TenetError } from '../errors';
import { onShutdown } from '../lifecycle';
import { connectDocker, type DockerEndpoint } from '../sandbox/docker/connect';
import { parseSize } from '../sandbox/docker/limits';
import { LABELS } from '../sandbox/docker/names';
import { buildFromContext, type ContextItem } from './build-context';
import { removeNow } from './remove-now';
import { RUNNER_IMAGE } from './runner-image';
import { RUN_FOLDER, SCRIPT_FILE, SPEC_FILE, type RunSpec } from './run-spec';

/** A run on a swarm, as each task's service needs it. */
export interface SwarmRun {
  docker: Docker;
  endpoint: DockerEndpoint;
  /** Names this run's services, image and secret: the same for the same run folder, so a restart finds them. */
  key: string;
  /** The per-run image: the runner plus the spec and the repositories. */
  image: string;
  labels: Record<string, string>;
  secret?: { id: string; name: string };
  network?: string;
  nanoCpus?: number;
  memoryBytes?: number;
  /** Containers the engine may start for a task in all (the first and its restarts). */
  attempts: number;
  /** Services under way, removed on Ctrl-C. */
  live: Set<string>;
}

export interface SwarmFlags {
  dockerHost?: string;
  runnerImage?: string;
  /** Where the per-run image is pushed for the other nodes (needed when the swarm has more than one). */
  registry?: string;
  network?: string;
  cpus?: number;
  memory?: string;
  attempts: number;
}

/** The run's key: its folder on this machine. */
export function swarmRunKey(runDir: string): string {
  return createHash('sha256').update(`${hostname()}\n${runDir}`).digest('hex').slice(0, 10);
}

/** The engine must be a manager of an active swarm: services are made there. */
async function checkSwarm(docker: Docker, url: string): Promise<number> {
  const info = (await docker.info()) as {
    Swarm?: { LocalNodeState?: string; ControlAvailable?: boolean; Nodes?: number };
  };
  if (info.Swarm?.LocalNodeState !== 'active')
    throw new TenetError(
      `The Docker engine at ${url} is not part of a swarm.`,
      'make it one with `docker swarm init` (one machine), or point --docker-host at a manager of your swarm',
    );
  if (!info.Swarm.ControlAvailable)
    throw new TenetError(
      `The Docker engine at ${url} is a swarm worker: services are made on a manager.`,
      'point --docker-host (or DOCKER_HOST) at a manager node (`docker node ls` on one lists them)',
    );
  return info.Swarm.Nodes ?? 1;
}

async function checkNetwork(docker: Docker, name: string): Promise<void> {
  const info = (await docker
    .getNetwork(name)
    .inspect()
    .catch(() => undefined)) as { Driver?: string; Scope?: string } | undefined;
  if (!info)
    throw new TenetError(
      `There is no network ${name} on the swarm.`,
      `make it: \`docker network create --driver overlay --attachable ${name}\``,
    );
  if (info.Scope !== 'swarm')
    throw new TenetError(
      `The network ${name} is ${info.Driver ?? 'a local'} network: swarm services join overlay networks only.`,
      `make one: \`docker network create --driver overlay --attachable NAME\``,
    );
}

/** What a killed run with this key left (services, secrets, its image): removed before it starts again. */
async function removeLeftovers(docker: Docker, key: string): Promise<void> {
  const filters = JSON.stringify({ label: [`${LABELS.swarmRun}=${key}`] });
  for (const service of (await docker.listServices({ filters })) as { ID: string }[])
    await docker
      .getService(service.ID)
      .remove()
      .catch(() => undefined);
  for (const secret of (await docker.listSecrets({ filters })) as { ID: string }[])
    await docker
      .getSecret(secret.ID)
      .remove()
      .catch(() => undefined);
  // The image once the removed services' containers here are gone (forced before, it would only lose its name and stay).
  for (let i = 0; i < 60 && ((await docker.listContainers({ all: true, filters })) as unknown[]).length; i++)
    await new Promise((r) => setTimeout(r, 500));
  for (const image of (await docker.listImages({ filters })) as { Id: string }[])
    await docker
      .getImage(image.Id)
      .remove()
      .catch(() => undefined);
}

/**
 * Everything a run on a swarm sets up before its first task, and takes down after its last: the
 * per-run image (the runner image plus the spec, the model script and each task's repository, so
 * a task needs no shared disk and no network to start), the API key as a Swarm secret, and the
 * hook that removes the run's services when tenet is stopped.
 */
export async function openSwarmRun(
  options: SwarmFlags & {
    runDir: string;
    tasks: BenchTask[];
    reposRoot?: string;
    spec: Omit<RunSpec, 'format' | 'tasks'>;
    script?: string;
    key?: string;
    onLine?: (line: string) => void;
  },
): Promise<SwarmRun & { close(): Promise<void> }> {
  const { docker, endpoint } = await connectDocker(options.dockerHost);
  const nodes = await checkSwarm(docker, endpoint.url);
  if (nodes > 1 && !options.registry)
    throw new TenetError(
      `The swarm has ${nodes} nodes: the run's image must reach them through a registry.`,
      'pass --registry HOST:PORT (one every node can pull from)',
    );
  const runner = options.runnerImage ?? RUNNER_IMAGE;
  if (
    !(await docker
      .getImage(runner)
      .inspect()
      .catch(() => undefined))
  ) {
    throw new TenetError(
      `The engine has no runner image ${runner}.`,
      options.runnerImage
        ? 'build it, or pass --runner-image with one the engine has'
        : 'build it with `tenet image build --runner` (offline, from the sandbox image)',
    );
  }
  if (options.network) await checkNetwork(docker, options.network);
  const key = swarmRunKey(options.runDir);
  const labels = { [LABELS.managed]: 'true', [LABELS.owner]: `${hostname()}:${process.pid}`, [LABELS.swarmRun]: key };
  await removeLeftovers(docker, key);

  // Each repository once, under a name of its own.
  const repos = new Map<string, string>();
  const tasks = options.tasks.map((task) => {
    const host = taskRepo(task, options.reposRoot);
    if (!repos.has(host)) repos.set(host, `${RUN_FOLDER}/repos/${repos.size}-${basename(host)}`);
    return { id: taskId(task), task, repo: repos.get(host)! };
  });
  const spec: RunSpec = {
    format: 'tenet-swarm-run',
    ...options.spec,
    ...(options.script !== undefined ? { model: { ...options.spec.model, script: SCRIPT_FILE } } : {}),
    tasks,
  };
  const image = `${options.registry ? `${options.registry.replace(/\/+$/, '')}/` : ''}tenet-run-${key}:latest`;
  const items: ContextItem[] = [
    { name: 'Dockerfile', text: `FROM ${runner}\nCOPY tenet-run ${RUN_FOLDER}\n` },
    { name: `tenet-run/${SPEC_FILE.slice(RUN_FOLDER.length + 1)}`, text: `${JSON.stringify(spec, null, 2)}\n` },
    ...(options.script !== undefined
      ? [{ name: `tenet-run/${SCRIPT_FILE.slice(RUN_FOLDER.length + 1)}`, text: options.script }]
      : []),
    ...[...repos].map(([host, inImage]) => ({ name: `tenet-run/${inImage.slice(RUN_FOLDER.length + 1)}`, from: host })),
  ];
  options.onLine?.(`building the run's image ${image} (${repos.size} repositor${repos.size === 1 ? 'y' : 'ies'})`);
  await buildFromContext(docker, image, items, labels);
  if (options.registry) await push(docker, image);

  let secret: SwarmRun['secret'];
  if (options.key) {
    const name = `tenet-${key}-key-${randomBytes(3).toString('hex')}`;
    const created = (await docker.createSecret({
      Name: name,
      Labels: labels,
      Data: Buffer.from(options.key).toString('base64'),
    })) as unknown as { id?: string; ID?: string };
    secret = { id: (created.id ?? created.ID)!, name };
  }
  const run: SwarmRun = {
    docker,
    endpoint,
    key,
    image,
    labels,
    ...(secret ? { secret } : {}),
    ...(options.network ? { network: options.network } : {}),
    ...(options.cpus ? { nanoCpus: Math.round(options.cpus * 1e9) } : {}),
    ...(options.memory ? { memoryBytes: parseSize(options.memory, '--memory') } : {}),
    attempts: options.attempts,
    live: new Set(),
  };
  const leftovers = () => [
    ...[...run.live].map((id) => `/services/${id}`),
    ...(secret ? [`/secrets/${secret.id}`] : []),
    `/images/${encodeURIComponent(image)}`,
  ];
  // Ctrl-C, SIGTERM: the services stop and go with tenet (a SIGKILL leaves them to the next run or `tenet gc`).
  const unregister = onShutdown(() => removeNow(endpoint, leftovers()));
  return {
    ...run,
    async close() {
      unregister();
      for (const id of run.live)
        await docker
          .getService(id)
          .remove()
          .catch(() => undefined);
      if (secret)
        await docker
          .getSecret(secret.id)
          .remove()
          .catch(() => undefined);
      // The tasks' containers go a moment after their services: until then the image is in use
      // (forced, it would only lose its name and stay, unnamed).
      for (let i = 0; i < 30; i++) {
        if (
          await docker
            .getImage(image)
            .remove()
            .then(
              () => true,
              (error: { statusCode?: number }) => error.statusCode === 404,
            )
        )
          break;
        await new Promise((r) => setTimeout(r, 500));
      }
    },
  };
}

async function push(docker: Docker, image: string): Promise<void> {
  const stream = (await docker.getImage(image).push({})) as unknown as NodeJS.ReadableStream;
  await new Promise<void>((resolve, reject) =>
    docker.modem.followProgress(stream, (error: Error | null, output: { error?: string }[]) => {
      const failed = output?.find((o) => o.error);
      if (error || failed)
        reject(
          new TenetError(
            `docker push ${image} failed: ${error?.message ?? failed?.error}`,
            'check that --registry is reachable from here and accepts pushes',
          ),
        );
      else resolve();
    }),
  );
}
