import Docker from 'dockerode';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TenetError } from '../../errors';

/** Where a Docker engine listens, as dockerode and tenet's exit-time clean-up both need it. */
export interface DockerEndpoint {
  socketPath?: string;
  host?: string;
  port?: number;
  protocol?: 'http' | 'https' | 'ssh';
  /** The URL as the user wrote it (or the default socket), for messages. */
  url: string;
}

const DEFAULT_SOCKET = '/var/run/docker.sock';

/**
 * `--docker-host`, else `$DOCKER_HOST`, else the local socket. Accepts `unix:///path`, a bare
 * socket path, `tcp://host:port` (TLS when the port is 2376 or `DOCKER_TLS_VERIFY=1`), `http://`,
 * `https://` and `ssh://user@host`.
 */
export function dockerEndpoint(url: string | undefined, env: NodeJS.ProcessEnv = process.env): DockerEndpoint {
  const given = url ?? env.DOCKER_HOST;
  if (!given) return { socketPath: DEFAULT_SOCKET, url: `unix://${DEFAULT_SOCKET}` };
  if (given.startsWith('/')) return { socketPath: given, url: `unix://${given}` };
  if (given.startsWith('unix://')) return { socketPath: given.slice('unix://'.length) || DEFAULT_SOCKET, url: given };
  let parsed: URL;
  try {
    parsed = new URL(given);
  } catch {
    throw new TenetError(
      `${given} is not a Docker host address.`,
      'use unix:///var/run/docker.sock, tcp://HOST:2375 or ssh://USER@HOST',
    );
  }
  const scheme = parsed.protocol.replace(/:$/, '');
  const port = parsed.port ? Number(parsed.port) : undefined;
  if (scheme === 'ssh') return { host: parsed.hostname, port: port ?? 22, protocol: 'ssh', url: given };
  if (scheme === 'tcp' || scheme === 'http' || scheme === 'https') {
    const tls = scheme === 'https' || env.DOCKER_TLS_VERIFY === '1' || port === 2376;
    return { host: parsed.hostname, port: port ?? (tls ? 2376 : 2375), protocol: tls ? 'https' : 'http', url: given };
  }
  throw new TenetError(`${given}: unknown Docker host scheme ${scheme}.`, 'use unix://, tcp://, https:// or ssh://');
}

/** TLS files from `$DOCKER_CERT_PATH`, as the docker CLI reads them. */
export function tlsFiles(env: NodeJS.ProcessEnv = process.env): { ca?: Buffer; cert?: Buffer; key?: Buffer } {
  const dir = env.DOCKER_CERT_PATH;
  if (!dir) return {};
  return {
    ca: readFileSync(join(dir, 'ca.pem')),
    cert: readFileSync(join(dir, 'cert.pem')),
    key: readFileSync(join(dir, 'key.pem')),
  };
}

export function dockerClient(endpoint: DockerEndpoint, env: NodeJS.ProcessEnv = process.env): Docker {
  if (endpoint.socketPath) return new Docker({ socketPath: endpoint.socketPath });
  if (endpoint.protocol === 'ssh')
    return new Docker({ protocol: 'ssh', host: endpoint.host!, port: endpoint.port! } as Docker.DockerOptions);
  return new Docker({
    protocol: endpoint.protocol!,
    host: endpoint.host!,
    port: endpoint.port!,
    ...(endpoint.protocol === 'https' ? tlsFiles(env) : {}),
  });
}

/** A client for a daemon that answered a ping; a clear error saying how to start one otherwise. */
export async function connectDocker(
  url: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ docker: Docker; endpoint: DockerEndpoint }> {
  const endpoint = dockerEndpoint(url, env);
  const docker = dockerClient(endpoint, env);
  try {
    await docker.ping({ abortSignal: AbortSignal.timeout(10_000) } as never);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    const local = !!endpoint.socketPath;
    throw new TenetError(
      `Cannot reach the Docker daemon at ${endpoint.url} (${reason}).`,
      local
        ? 'start it (`sudo systemctl start docker`, or `sudo dockerd &` where there is no systemd), pass --docker-host for another engine, or use --sandbox local'
        : 'check that the engine at that address is running and reachable, or use --sandbox local',
    );
  }
  return { docker, endpoint };
}
