import type Docker from 'dockerode';
import { hostname } from 'node:os';
import { lchown, readdir } from 'node:fs/promises';
import { basename, join, posix } from 'node:path';
import { TenetError } from '../../errors';
import { onShutdown } from '../../lifecycle';
import { readInside } from '../../workspace/inside';
import { collect } from '../run-process';
import type { ProcessRunOptions, CompletedProcess, Sandbox, SandboxProcess, SpawnOptions } from '../sandbox';
import { packFiles, packTree, readSingleFile, type Owner } from './archive';
import { connectDocker, type DockerEndpoint } from './connect';
import { CONTAINER_USER_NAME, newContainerOwner } from './container-user';
import { PID_DIR, runQuiet, startExec } from './exec-process';
import type { ContainerLimits } from '../../protocol/settings';
import { imageWithHelpers } from './helpers-image';
import { DEFAULT_IMAGE, LABELS } from './names';
import { removeContainerNow, watchContainer } from './reaper';

export interface DockerSandboxOptions {
  image: string;
  /** `--docker-host`; else DOCKER_HOST, else the local socket. */
  host?: string;
  /** Bind-mount the workspace instead of copying it in (the engine must share this machine's disk). */
  mount?: boolean;
  limits: ContainerLimits;
  /** Session id for the container's label and name. */
  session: string;
  env?: NodeJS.ProcessEnv;
  /** Variables of `env` given to the container's processes (`--pass-env`); nothing else of it is. */
  passEnv?: string[];
}

const WORK_ROOT = '/workspace';
/** tenet's Python helpers, in the image the containers start from (see helpers-image.ts). */
const HELPERS_DIR = '/opt/tenet/python';
/**
 * Who the tests' user is, for code that asks (getpass.getuser()): tenet's users have no entry in
 * the image's /etc/passwd, which the read-only root file system keeps as the image has it.
 */
const USER_ENV = { USER: CONTAINER_USER_NAME, LOGNAME: CONTAINER_USER_NAME };
/** Processes left to tenet's own execs (kills, clean-ups) when the tests use up their share. */
const PIDS_RESERVED = 32;

/**
 * A session's container: THM's pytest runs, the agent's tests and its debugger run in it through
 * `exec`. The host workspace stays the source of truth (tenet blanks, submits and hides tests
 * there); `syncFile` copies a changed file in. Isolated by default: no network, memory, CPU and
 * process limits, a read-only root file system with only the workspace and /tmp writable, no
 * capabilities, not root. The container goes when the session ends, on Ctrl-C or on an error.
 */
export class DockerSandbox implements Sandbox {
  readonly kind = 'docker' as const;
  readonly helpersDir = HELPERS_DIR;
  private readonly live = new Set<SandboxProcess>();
  private unregister: () => void = () => undefined;
  private removed = false;
  /** A tenet killed outright cannot remove its container: a watchdog process does (see watchContainer). */
  private readonly stopWatching: () => void;

  private constructor(
    private readonly endpoint: DockerEndpoint,
    readonly container: Docker.Container,
    private readonly hostRoot: string,
    readonly workdir: string,
    readonly env: NodeJS.ProcessEnv,
    private readonly owner: Owner,
    private readonly mounted: boolean,
    readonly image: string,
    private readonly nproc: number | undefined,
  ) {
    this.unregister = onShutdown(() => this.removeNow());
    this.stopWatching = watchContainer(endpoint, container.id);
  }

  static async create(hostRoot: string, options: DockerSandboxOptions): Promise<DockerSandbox> {
    const { docker, endpoint } = await connectDocker(options.host, options.env);
    let imageInfo: Docker.ImageInspectInfo;
    try {
      imageInfo = await docker.getImage(options.image).inspect();
    } catch (error) {
      if ((error as { statusCode?: number }).statusCode !== 404)
        throw dockerError(`Cannot inspect image ${options.image}`, error);
      throw new TenetError(
        `The Docker image ${options.image} is not on the engine at ${endpoint.url}.`,
        options.image === DEFAULT_IMAGE
          ? 'build it with `tenet image build` (offline, about a minute), or pass --image with any image that has python3 and pytest'
          : `build or pull it there, or pass --image with an image that has python3 and pytest (\`tenet image build\` makes ${DEFAULT_IMAGE})`,
      );
    }
    let image: string;
    try {
      image = await imageWithHelpers(docker, imageInfo, HELPERS_DIR);
    } catch (error) {
      throw dockerError(`Cannot add tenet's helpers to the image ${options.image}`, error);
    }
    const mounted = options.mount ?? false;
    // A bind-mounted workspace keeps its owner: run as that owner so the tests can write in it,
    // unless that is root: then the scratch copy (never the checkout) is handed to the
    // container's own user, as a copied-in workspace is (see container-user.ts).
    const hostUid = process.getuid?.() ?? 0;
    const ownUser = !mounted || hostUid === 0;
    let owner: Owner;
    try {
      owner = ownUser ? await newContainerOwner(docker) : { uid: hostUid, gid: process.getgid?.() ?? 0 };
    } catch (error) {
      throw dockerError(`Cannot list the containers on ${endpoint.url}`, error);
    }
    if (mounted && ownUser) await chownTree(hostRoot, owner);
    const workdir = posix.join(WORK_ROOT, basename(hostRoot) || 'repo');
    const limits = options.limits;
    // Nothing of tenet's environment goes in but what --pass-env names.
    const passed = Object.fromEntries(
      (options.passEnv ?? []).flatMap((name) =>
        options.env?.[name] !== undefined ? [[name, options.env[name]!]] : [],
      ),
    );
    let container: Docker.Container;
    try {
      container = await docker.createContainer({
        name: `tenet-${options.session}-${Math.random().toString(36).slice(2, 8)}`,
        Image: image,
        Entrypoint: [],
        Cmd: ['sleep', 'infinity'],
        User: `${owner.uid}:${owner.gid}`,
        WorkingDir: workdir,
        Env: Object.entries({ HOME: '/tmp', ...USER_ENV, ...passed }).map(([name, value]) => `${name}=${value}`),
        Labels: {
          [LABELS.managed]: 'true',
          [LABELS.session]: options.session,
          [LABELS.owner]: `${hostname()}:${process.pid}`,
          [LABELS.uid]: String(owner.uid),
        },
        NetworkDisabled: !limits.network,
        Volumes: mounted ? {} : { [WORK_ROOT]: {} },
        HostConfig: {
          Init: true,
          NetworkMode: limits.network ? 'bridge' : 'none',
          Memory: limits.memoryBytes,
          MemorySwap: limits.memoryBytes,
          NanoCpus: Math.round(limits.cpus * 1e9),
          PidsLimit: limits.pids,
          ReadonlyRootfs: true,
          Tmpfs: { '/tmp': `rw,exec,nosuid,nodev,size=${limits.tmpBytes}` },
          CapDrop: ['ALL'],
          SecurityOpt: ['no-new-privileges'],
          ...(mounted ? { Binds: [`${hostRoot}:${workdir}`] } : {}),
        },
      });
    } catch (error) {
      throw dockerError(`Cannot create a container from ${options.image}`, error);
    }
    const imageEnv = Object.fromEntries(
      (imageInfo.Config?.Env ?? []).map((line) => [
        line.slice(0, line.indexOf('=')),
        line.slice(line.indexOf('=') + 1),
      ]),
    );
    // RLIMIT_NPROC counts a user's processes on the whole machine: fine for the container's own
    // user, not for a bind-mount's owner (who runs other things on this machine).
    const nproc = ownUser ? Math.max(8, limits.pids - PIDS_RESERVED) : undefined;
    const sandbox = new DockerSandbox(
      endpoint,
      container,
      hostRoot,
      workdir,
      { ...imageEnv, ...USER_ENV, ...passed, HOME: '/tmp' },
      owner,
      mounted,
      options.image,
      nproc,
    );
    try {
      try {
        await container.start();
      } catch (error) {
        // An image without `sleep` (an empty or distroless one) cannot even start.
        throw unusableImage(options.image, `cannot start a container: ${dockerMessage(error)}`);
      }
      const missing = await missingTools(container);
      if (missing) throw unusableImage(options.image, `has no ${missing}`);
      if (!mounted) await container.putArchive(packTree(hostRoot, basename(workdir), owner), { path: WORK_ROOT });
    } catch (error) {
      await sandbox.dispose();
      throw dockerError('Cannot set up the container', error);
    }
    return sandbox;
  }

  get id(): string {
    return this.container.id;
  }

  spawn(argv: string[], options: SpawnOptions = {}): SandboxProcess {
    if (!argv.length) throw new Error('spawn: empty command');
    const child = startExec({
      container: this.container,
      argv,
      env: options.env ?? {},
      workingDir: options.cwd ? posix.join(this.workdir, options.cwd) : this.workdir,
      reaper: posix.join(this.helpersDir, '_tenet_launch.py'),
      ...(this.nproc ? { nproc: this.nproc } : {}),
    });
    this.live.add(child);
    void child.exited.then(() => this.live.delete(child));
    return child;
  }

  run(argv: string[], options: ProcessRunOptions = {}): Promise<CompletedProcess> {
    return collect(this.spawn(argv, options), options);
  }

  syncFile(rel: string): Promise<void> {
    return this.syncFiles([rel]);
  }

  async syncFiles(rels: readonly string[]): Promise<void> {
    if (this.mounted || !rels.length) return;
    // Parent folders go too, owned by the container's user, in case they are new.
    const entries = new Set<string>();
    for (const rel of rels) {
      const parts = rel.split('/').slice(0, -1);
      for (let i = 1; i <= parts.length; i++) entries.add(parts.slice(0, i).join('/'));
      entries.add(rel);
    }
    try {
      await this.container.putArchive(packFiles(this.hostRoot, [...entries], this.owner), { path: this.workdir });
    } catch (error) {
      throw dockerError(`Cannot copy ${rels.join(', ')} into the container`, error);
    }
    // Python trusts a .pyc whose recorded source mtime (whole seconds) and size match, so two
    // versions of one size written within a second could share one. The host drops its bytecode
    // on each write (Workspace.write); the container's goes here, after the new sources are in.
    const sources = rels.filter((rel) => rel.endsWith('.py'));
    if (sources.length)
      await runQuiet({ container: this.container }, [
        'sh',
        '-c',
        'while [ $# -gt 0 ]; do rm -f "$1"/__pycache__/"$2".*.pyc; shift 2; done',
        'sh',
        ...sources.flatMap((rel) => [posix.join(this.workdir, posix.dirname(rel)), posix.basename(rel, '.py')]),
      ]);
  }

  async readFile(rel: string): Promise<Buffer> {
    // The container writes this folder too: the target is read back only as the file it is, never through a link out.
    if (this.mounted) return readInside(this.hostRoot, rel);
    try {
      return await readSingleFile(await this.container.getArchive({ path: posix.join(this.workdir, rel) }));
    } catch (error) {
      throw dockerError(`Cannot read ${rel} from the container`, error);
    }
  }

  async dispose(): Promise<void> {
    this.unregister();
    if (this.removed) return;
    this.removed = true;
    for (const child of this.live) child.stdin.destroy();
    await this.container.remove({ force: true, v: true }).catch(() => undefined);
    this.stopWatching();
  }

  /** The exit-hook path: no promise can be awaited there. */
  private removeNow(): void {
    if (this.removed) return;
    this.removed = true;
    removeContainerNow(this.endpoint, this.container.id);
    this.stopWatching();
  }
}

function dockerMessage(error: unknown): string {
  const json = (error as { json?: { message?: string } }).json;
  return json?.message ?? (error as Error).message;
}

/** A Docker API failure as a TenetError that carries the engine's own message. */
export function dockerError(what: string, error: unknown): Error {
  if (error instanceof TenetError) return error;
  return new TenetError(
    `${what}: ${dockerMessage(error)}`,
    'check the Docker engine (`docker info`) and the image, or use --sandbox local',
  );
}

/** Exit codes of the probe in `missingTools`, and what each means is missing. */
const PROBE = {
  script: [
    // Where each exec notes its pid (see exec-process.ts), made by the same exec.
    `mkdir -p ${PID_DIR}`,
    'command -v python3 >/dev/null 2>&1 || exit 3',
    `python3 -c 'import importlib.util, sys; sys.exit(importlib.util.find_spec("pytest") is None)' >/dev/null 2>&1 || exit 4`,
  ].join('; '),
  missing: { 3: 'python3 (nor pytest)', 4: 'pytest for its python3' } as Record<number, string>,
};

/**
 * What tenet needs and a running container lacks: a shell, python3, pytest (found, not imported,
 * to keep it quick). Undefined when all are there.
 */
async function missingTools(container: Docker.Container): Promise<string | undefined> {
  const code = await runQuiet({ container }, ['sh', '-c', PROBE.script]);
  if (code === 0) return undefined;
  return (
    (code !== null && PROBE.missing[code]) ||
    'working `sh` (tenet runs every command through it), nor python3 and pytest'
  );
}

/** An image that exists but cannot run tenet's tests: say what it lacks and how to get one that can. */
function unusableImage(image: string, problem: string): TenetError {
  return new TenetError(
    `The Docker image ${image} ${problem}; tenet needs sh, python3 and pytest in it.`,
    image === DEFAULT_IMAGE
      ? 'rebuild it with `tenet image build` (offline, about a minute)'
      : `build the default image with \`tenet image build\` and leave out --image (it makes ${DEFAULT_IMAGE}), or pass --image with an image that has python3 and pytest`,
  );
}

/** Every file and folder under `root` (symlinks themselves, not their targets) to `owner`. */
async function chownTree(root: string, owner: Owner): Promise<void> {
  await lchown(root, owner.uid, owner.gid);
  for (const entry of await readdir(root, { withFileTypes: true })) {
    const path = join(root, entry.name);
    if (entry.isDirectory()) await chownTree(path, owner);
    else await lchown(path, owner.uid, owner.gid);
  }
}
