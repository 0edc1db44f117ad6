import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { PassThrough } from 'node:stream';
import type Docker from 'dockerode';
import type { EngineEvent } from '../events';
import type { TaskResult } from '../bench/run-dir';
import { taskId, taskTarget, type BenchTask } from '../bench/task';
import { newSessionId } from '../run/run-task';
import { SessionRecorder } from '../session/recorder';
import { eventsFile } from '../session/paths';
import { FrameReader, lineSplitter } from './log-frames';
import { KEY_FILE, SPEC_FILE } from './run-spec';
import type { SwarmRun } from './swarm-run';

/** States a Swarm task does not leave. */
const ENDED = new Set(['complete', 'failed', 'shutdown', 'rejected', 'orphaned', 'remove']);

/** How often the coordinator looks at a service's tasks (new attempts, the engine giving up). */
const POLL_MS = 1000;

/** How long a task may stay unplaceable (the scheduler says why) before it is an error: a node may free up or join meanwhile. */
const UNPLACED_MS = 15_000;

/** A service name from a task's id: Docker allows 63 characters of letters, digits and dashes. */
export function serviceName(runKey: string, id: string): string {
  const safe = id
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `tenet-${runKey}-${safe}`.slice(0, 63).replace(/-+$/, '');
}

/** The service for one task: the runner's `bench task`, restarted by the engine on failure a bounded number of times. */
function serviceSpec(run: SwarmRun, task: BenchTask, sessionId: string): Docker.CreateServiceOptions {
  const name = serviceName(run.key, taskId(task));
  const resources = {
    ...(run.nanoCpus ? { NanoCPUs: run.nanoCpus } : {}),
    ...(run.memoryBytes ? { MemoryBytes: run.memoryBytes } : {}),
  };
  return {
    Name: name,
    Labels: run.labels,
    TaskTemplate: {
      ContainerSpec: {
        Image: run.image,
        Args: ['bench', 'task', '--spec', SPEC_FILE, '--task', taskId(task), '--session', sessionId],
        Labels: run.labels,
        // The key is a file from a Swarm secret; the environment names the file, not the key.
        ...(run.secret
          ? {
              Secrets: [
                {
                  SecretID: run.secret.id,
                  SecretName: run.secret.name,
                  File: { Name: KEY_FILE.split('/').pop()!, UID: '0', GID: '0', Mode: 0o400 },
                },
              ],
            }
          : {}),
      },
      // Reserved and limited alike: the engine places a task where its share is free, and holds it to that share.
      Resources: { Limits: resources, Reservations: resources },
      // A container that dies before its result (killed, out of memory, its node lost) runs again, at most `attempts` times in all.
      RestartPolicy:
        run.attempts > 1
          ? { Condition: 'on-failure', Delay: 1e9, MaxAttempts: run.attempts - 1 }
          : { Condition: 'none' },
      ...(run.network ? { Networks: [{ Target: run.network }] } : {}),
    },
    Mode: { Replicated: { Replicas: 1 } },
    // Nothing connects to a task: no virtual IP (and no need of the kernel's IPVS for one).
    EndpointSpec: { Mode: 'dnsrr' },
  } as Docker.CreateServiceOptions;
}

interface SwarmTaskInfo {
  ID: string;
  NodeID?: string;
  Status?: { State?: string; Err?: string; ContainerStatus?: { ExitCode?: number } };
}

/**
 * Runs one task as a Swarm service and brings it home: its events, read from the service's logs,
 * recorded as the session `sessionId` in `sessions` exactly as a local run records it, and its
 * result line. When the engine restarts the task (a new attempt), what the killed attempt recorded
 * is dropped: the session is the attempt that finished. The service is removed at the end.
 */
export async function runOnSwarm(
  run: SwarmRun,
  task: BenchTask,
  sessions: string,
  onEvent?: (event: EngineEvent) => void,
): Promise<TaskResult> {
  const sessionId = newSessionId();
  const started = Date.now();
  const docker = run.docker;
  // No registry credentials: given one argument, dockerode would send the whole spec as the X-Registry-Auth header.
  const created = (await docker.createService(undefined as never, serviceSpec(run, task, sessionId))) as unknown as {
    id?: string;
    ID?: string;
  };
  const service = docker.getService((created.id ?? created.ID)!);
  run.live.add(service.id);
  let recorder: SessionRecorder | undefined;
  const openRecorder = () => {
    recorder?.close();
    // A new attempt starts the session again: nothing of the killed one stays.
    rmSync(dirname(eventsFile(sessions, sessionId)), { recursive: true, force: true });
    recorder = SessionRecorder.open(sessions, sessionId);
  };
  let result: TaskResult | undefined;
  // The container's last words, for the error when it gave none of its own (a crash, an out-of-memory kill).
  const stderr: string[] = [];
  const note = (...lines: string[]) => {
    stderr.push(...lines);
    stderr.splice(0, Math.max(0, stderr.length - 20));
  };
  const reader = new FrameReader(
    (payload) => {
      const p = payload as { event?: EngineEvent; result?: TaskResult };
      if (p.event) {
        recorder?.record(p.event);
        onEvent?.(p.event);
      }
      if (p.result) result = p.result;
    },
    openRecorder,
    (line) => note(line),
  );
  let logs: NodeJS.ReadableStream | undefined;
  const follow = async () => {
    (logs as unknown as { destroy?: () => void })?.destroy?.();
    const stream = (await service.logs({
      follow: true,
      stdout: true,
      stderr: true,
    })) as unknown as NodeJS.ReadableStream;
    logs = stream;
    const out = new PassThrough();
    const err = new PassThrough();
    docker.modem.demuxStream(stream, out, err);
    const lines = lineSplitter((line) => reader.line(line));
    out.on('data', (chunk: Buffer) => logs === stream && lines.push(chunk));
    err.on('data', (chunk: Buffer) => logs === stream && note(...chunk.toString().split('\n').filter(Boolean)));
    stream.on('error', () => undefined);
  };
  const seen = new Set<string>();
  let tasks: SwarmTaskInfo[] = [];
  let unplaced: { since: number; why: string } | undefined;
  let gaveUp: string | undefined;
  try {
    for (;;) {
      tasks = (await docker.listTasks({ filters: JSON.stringify({ service: [service.id] }) })) as SwarmTaskInfo[];
      // A new attempt: its logs are read from the start of the service's (frames already read are skipped).
      if (tasks.some((t) => !seen.has(t.ID))) {
        for (const t of tasks) seen.add(t.ID);
        await follow();
      }
      if (result) break;
      const failed = tasks.filter((t) => ENDED.has(t.Status?.State ?? '') && t.Status?.State !== 'complete');
      const active = tasks.filter((t) => !ENDED.has(t.Status?.State ?? ''));
      const completed = tasks.some((t) => t.Status?.State === 'complete');
      if (!active.length && (completed || failed.length >= run.attempts)) {
        // The container is gone: what it wrote is all there is. Once more from the start, not followed.
        await new Promise((r) => setTimeout(r, 500));
        const stream = (await service.logs({ follow: false, stdout: true, stderr: true })) as unknown as
          | NodeJS.ReadableStream
          | Buffer;
        logs = undefined;
        const text = Buffer.isBuffer(stream) ? stream : await collect(stream);
        const out = new PassThrough();
        const lines = lineSplitter((line) => reader.line(line));
        out.on('data', (chunk: Buffer) => lines.push(chunk));
        demuxBuffer(text, out);
        lines.end();
        break;
      }
      // A task no node can take (more --cpus or --memory than any has free, a missing image) waits
      // forever in `pending`, the scheduler's reason in its status: said, not waited on.
      const pending = active.find((t) => t.Status?.State === 'pending' && t.Status.Err);
      unplaced = pending ? (unplaced ?? { since: Date.now(), why: pending.Status!.Err! }) : undefined;
      if (unplaced && Date.now() - unplaced.since > UNPLACED_MS) {
        gaveUp = `The swarm cannot place the task: ${unplaced.why}. Ask for less with --cpus and --memory, or add nodes.`;
        break;
      }
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    const attempts = seen.size;
    const node = await nodeName(run, tasks.at(-1)?.NodeID);
    if (result) return { ...result, sessionId, host: `swarm:${node}`, attempts };
    const last = tasks.at(-1)?.Status;
    const why = `${last?.Err ?? `exit ${last?.ContainerStatus?.ExitCode ?? '?'}`}${stderr.length ? `; ${stderr.slice(-3).join(' | ')}` : ''}`;
    const message =
      gaveUp ??
      `The task's container ended without a result ${attempts} time${attempts === 1 ? '' : 's'} on the swarm (last: ${why}).`;
    if (!recorder) openRecorder();
    recorder!.record({ type: 'error', message });
    return {
      taskId: taskId(task),
      repository: task.repository,
      target: taskTarget(task),
      sessionId,
      pass: false,
      stopReason: 'error',
      usage: { inputTokens: 0, outputTokens: 0, modelCalls: 0, toolCalls: 0 },
      costUsd: 0,
      wallMs: Date.now() - started,
      error: message,
      host: `swarm:${node}`,
      attempts,
      finishedAt: new Date().toISOString(),
    };
  } finally {
    (logs as unknown as { destroy?: () => void })?.destroy?.();
    recorder?.close();
    await service.remove().catch(() => undefined);
    run.live.delete(service.id);
  }
}

async function collect(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

/** Docker's multiplexed log format (8-byte headers: stream, 3 zero bytes, length), stdout only. */
function demuxBuffer(buffer: Buffer, out: PassThrough): void {
  let at = 0;
  while (at + 8 <= buffer.length) {
    const kind = buffer[at]!;
    const size = buffer.readUInt32BE(at + 4);
    if (kind === 1) out.write(buffer.subarray(at + 8, at + 8 + size));
    at += 8 + size;
  }
  out.end();
}

const nodeNames = new Map<string, string>();
/** The host name of the node a task ran on (where the result says it ran). */
async function nodeName(run: SwarmRun, nodeId: string | undefined): Promise<string> {
  if (!nodeId) return '?';
  if (!nodeNames.has(nodeId)) {
    const info = (await run.docker
      .getNode(nodeId)
      .inspect()
      .catch(() => undefined)) as { Description?: { Hostname?: string } } | undefined;
    nodeNames.set(nodeId, info?.Description?.Hostname ?? nodeId.slice(0, 12));
  }
  return nodeNames.get(nodeId)!;
}
