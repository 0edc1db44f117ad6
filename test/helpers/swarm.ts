import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type Docker from 'dockerode';
import { build } from 'esbuild';
import { ROOT } from './fixtures';

/**
 * A swarm for a test on the machine's engine, left as found: when the engine is in none, a one-node
 * swarm is made and left at the end; an engine already in one is used as it is. Other tests share
 * the engine: everything a test makes carries its own prefix and only that is removed.
 */
export async function useSwarm(docker: Docker): Promise<{ leave(): Promise<void> }> {
  const info = (await docker.info()) as { Swarm?: { LocalNodeState?: string } };
  if (info.Swarm?.LocalNodeState === 'active') return { leave: async () => undefined };
  await docker.swarmInit({ ListenAddr: '0.0.0.0:2377', AdvertiseAddr: '127.0.0.1' });
  return { leave: () => docker.swarmLeave({ force: true }).then(() => undefined) };
}

/** Where the bundle is mounted: inside the runner's tenet folder, so `gpt-tokenizer` resolves to its node_modules. */
const SERVICE_FILE = '/opt/tenet/test-fake/service.mjs';

/**
 * The fake model server (fake-model-service.ts, bundled here) as a service on an attachable overlay
 * network, run by the runner image's Node: an OpenAI-compatible oracle for the tasks in
 * `tasksFile` that wants `key`. Its code, the tasks and the key reach it as Swarm configs.
 * Resolves once it listens; `remove` takes the service and its configs away.
 */
export async function startFakeModelService(
  docker: Docker,
  options: { prefix: string; image: string; network: string; tasksFile: string; key: string; bundleDir: string },
): Promise<{ url: string; remove(): Promise<void> }> {
  const bundle = join(options.bundleDir, 'fake-model-service.mjs');
  // The tokenizer (megabytes, past a config's 500 KB) stays out: the bundle sits in the runner's tenet folder and loads tenet's copy.
  await build({
    entryPoints: [join(ROOT, 'test/helpers/fake-model-service.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: bundle,
    logLevel: 'warning',
    external: ['gpt-tokenizer'],
  });
  const labels = { 'dev.tenet.test': options.prefix };
  const files: [string, string][] = [
    [SERVICE_FILE, readFileSync(bundle, 'utf8')],
    ['/fake/tasks.jsonl', readFileSync(options.tasksFile, 'utf8')],
    ['/fake/key', options.key],
  ];
  const configs: { id: string; name: string; file: string }[] = [];
  for (const [file, text] of files) {
    const name = `${options.prefix}-${file.split('/').pop()!.replace(/\W/g, '-')}`;
    const created = (await docker.createConfig({
      Name: name,
      Labels: labels,
      Data: Buffer.from(text).toString('base64'),
    })) as unknown as { id?: string; ID?: string };
    configs.push({ id: (created.id ?? created.ID)!, name, file });
  }
  const name = `${options.prefix}-fakellm`;
  // No registry credentials (given one argument, dockerode sends the spec as the X-Registry-Auth header).
  const created = (await docker.createService(
    undefined as never,
    {
      Name: name,
      Labels: labels,
      TaskTemplate: {
        ContainerSpec: {
          Image: options.image,
          Command: ['/usr/local/bin/node'],
          Args: [SERVICE_FILE, '/fake/tasks.jsonl', '/fake/key', '8080'],
          Configs: configs.map((c) => ({
            ConfigID: c.id,
            ConfigName: c.name,
            File: { Name: c.file, UID: '0', GID: '0', Mode: 0o444 },
          })),
        },
        Networks: [{ Target: options.network }],
        RestartPolicy: { Condition: 'none' },
      },
      Mode: { Replicated: { Replicas: 1 } },
      // DNS names the container itself, not a virtual IP: the VIP needs the kernel's IPVS, which CI machines in containers may lack.
      EndpointSpec: { Mode: 'dnsrr' },
    } as Docker.CreateServiceOptions,
  )) as unknown as { id?: string; ID?: string };
  const service = docker.getService((created.id ?? created.ID)!);
  const remove = async () => {
    await service.remove().catch(() => undefined);
    // A config in use by the service's (still stopping) container cannot go yet.
    for (const config of configs) {
      for (
        let i = 0;
        i < 20 &&
        !(await docker
          .getConfig(config.id)
          .remove()
          .then(
            () => true,
            (e: { statusCode?: number }) => e.statusCode === 404,
          ));
        i++
      )
        await new Promise((r) => setTimeout(r, 500));
    }
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    const logs = (await service.logs({ stdout: true, stderr: true, follow: false })) as unknown as Buffer;
    if (logs.toString().includes('fake model listening')) break;
    if (Date.now() > deadline) {
      await remove();
      throw new Error(`the fake model service did not start: ${logs.toString().slice(-500)}`);
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  return { url: `http://${name}:8080/v1`, remove };
}
