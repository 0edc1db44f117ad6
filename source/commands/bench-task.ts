import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { runOneTask } from '../engine/bench/run-one';
import { modelsForTasks } from '../engine/bench/task-model';
import { TenetError } from '../engine/errors';
import { setSignalHandler, signalExitCode } from '../engine/lifecycle';
import { encodeFrames } from '../engine/swarm/log-frames';
import { KEY_FILE, runSettings, type RunSpec } from '../engine/swarm/run-spec';
import { EXIT } from '../engine/exit-codes';

/**
 * `tenet bench task` (inside a runner container, started by `bench run --on swarm`): one task of
 * the run whose spec the image holds, its events and then its result written to stdout as framed
 * JSON lines (log-frames.ts) for the coordinator to read from the service's logs. Exit 0 once the
 * result is out, whatever it says: only a container that dies before (killed, out of memory, its
 * node lost) is a failure for the engine to retry.
 */
export async function benchTaskCommand(options: { spec: string; task: string; session: string }): Promise<number> {
  if (!existsSync(options.spec))
    throw new TenetError(
      `No run spec at ${options.spec}.`,
      'this command runs inside the image `tenet bench run --on swarm` builds',
    );
  const spec = JSON.parse(readFileSync(options.spec, 'utf8')) as RunSpec;
  const entry = spec.tasks.find((t) => t.id === options.task);
  if (!entry) throw new TenetError(`The run has no task ${options.task}.`);
  // The key comes as a Swarm secret (a file), never as the service's environment.
  if (spec.keyVariable && existsSync(KEY_FILE)) process.env[spec.keyVariable] = readFileSync(KEY_FILE, 'utf8').trim();
  const attempt = randomBytes(6).toString('hex');
  let seq = 0;
  const send = (payload: unknown) => {
    for (const line of encodeFrames(attempt, seq, payload)) process.stdout.write(line);
    seq++;
  };
  const controller = new AbortController();
  setSignalHandler((signal) => {
    controller.abort();
    process.exit(signalExitCode(signal));
  });
  // The task's container is its sandbox: no network but the run's, the image's filesystem, its
  // own PID namespace. Bubblewrap inside it would need privileges a service does not get.
  const result = await runOneTask(entry.task, { kind: 'local', unconfined: true }, options.session, {
    settings: runSettings(spec),
    modelFor: modelsForTasks(spec.config, spec.model),
    repo: entry.repo,
    signal: controller.signal,
    host: hostname(),
    emit: (event) => {
      // Streamed tool arguments are for watching live; the session keeps the whole call.
      if (event.type !== 'model.tool-delta') send({ event });
    },
  });
  send({ result });
  return EXIT.pass;
}
