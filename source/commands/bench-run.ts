import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { folderToUse } from '../engine/util/checked-paths';
import { resolve } from 'node:path';
import { TDD_PAPER_BUDGET } from '../engine/agent/tdd-strategy';
import { runBench, type BenchProgress } from '../engine/bench/run-bench';
import { readTasks, taskId } from '../engine/bench/task';
import { modelsForTasks } from '../engine/bench/task-model';
import { loadConfig } from '../engine/config/config';
import { TenetError } from '../engine/errors';
import { setSignalHandler, signalExitCode } from '../engine/lifecycle';
import type { ModelFlags } from '../engine/model/create-model';
import type { SpendLimits } from '../engine/protocol/settings';
import { resolveSettings, type RunChoices } from '../engine/run/run-settings';
import { stopLabel, verdictWord } from '../engine/phrase-book';
import type { SandboxSpec } from '../engine/sandbox/create-sandbox';
import { sandboxSpec, type SandboxFlags } from '../engine/sandbox/sandbox-spec';
import { printable } from '../engine/terminal-text';
import type { BenchTask } from '../engine/bench/task';
import type { TenetConfig } from '../engine/config/config';
import type { ModelSettings } from '../engine/protocol/settings';
import type { RunSettings } from '../engine/run/run-settings';
import { specSettings } from '../engine/swarm/run-spec';
import { openSwarmRun, type SwarmFlags } from '../engine/swarm/swarm-run';
import { runOnSwarm } from '../engine/swarm/task-service';
import { EXIT } from '../engine/exit-codes';

export interface BenchRunCommandOptions {
  tasksFile: string;
  out: string;
  parallel: number;
  label?: string;
  reposRoot?: string;
  only?: string[];
  limit?: number;
  retryErrors?: boolean;
  /** `--script`: a scripted model's script, filled in per task. */
  model: Omit<ModelFlags, 'scriptStart'>;
  settings: RunChoices;
  sandbox: SandboxFlags;
  /** `--on swarm`: each task as a service on the swarm of the engine (`--docker-host`, else DOCKER_HOST). */
  on?: 'local' | 'swarm';
  swarm?: Omit<SwarmFlags, 'dockerHost' | 'cpus' | 'memory'>;
  json?: boolean;
}

const clock = (ms: number) => {
  const s = Math.round(ms / 1000);
  return s >= 3600
    ? `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`
    : s >= 60
      ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`
      : `${s}s`;
};

/** The progress of a run on stderr: a redrawn bar in a terminal, a line per finished task otherwise. */
function progressPrinter(stream: NodeJS.WriteStream = process.stderr): (p: BenchProgress) => void {
  return (p) => {
    const rate = p.doneHere ? p.elapsedMs / p.doneHere : 0;
    const eta = rate ? clock(rate * (p.total - p.done)) : '?';
    const pct = p.done ? Math.round((100 * p.passed) / p.done) : 0;
    const summary = `${p.done}/${p.total} done · pass ${p.passed} (${pct}%) · ${p.errors ? `${p.errors} errors · ` : ''}$${p.costUsd.toFixed(4)} · ETA ${eta}`;
    if (stream.isTTY) {
      const width = 24;
      const filled = Math.round((p.done / Math.max(1, p.total)) * width);
      stream.write(
        `\r\x1b[2K${'█'.repeat(filled)}${'░'.repeat(width - filled)} ${summary}${p.running.length ? ` · running ${p.running.join(', ')}` : ''}`,
      );
      if (p.done === p.total) stream.write('\n');
    } else if (p.last) {
      stream.write(
        `${verdictWord(p.last)} ${p.last.taskId} (${p.last.error ? `error: ${printable(p.last.error)}` : stopLabel(p.last)}, ${clock(p.last.wallMs)}) · ${summary}\n`,
      );
    }
  };
}

/** `tenet bench run TASKS --out DIR`: every task as a session, N at a time; resumable. */
export async function benchRunCommand(options: BenchRunCommandOptions): Promise<number> {
  const tasksFile = resolve(options.tasksFile);
  // Flags that do not go together are refused before anything is made (--out is made below).
  const onSwarm = options.on === 'swarm';
  const swarmOnly = (['runnerImage', 'registry', 'network'] as const).filter(
    (key) => options.swarm?.[key] !== undefined,
  );
  if (!onSwarm && swarmOnly.length)
    throw new TenetError(
      `${swarmOnly.map((k) => `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`).join(', ')} go${swarmOnly.length === 1 ? 'es' : ''} with --on swarm only.`,
      'add --on swarm, or leave them out',
    );
  if (onSwarm && options.sandbox.sandbox === 'docker')
    throw new TenetError(
      '--on swarm runs each task in a container of its own already: --sandbox docker does not go with it.',
      'leave out --sandbox (the tasks run in the runner image), or drop --on swarm',
    );
  folderToUse(options.out, '--out');
  let tasks = readTasks(tasksFile);
  if (options.only?.length) {
    const wanted = new Set(options.only);
    tasks = tasks.filter((t) => wanted.has(taskId(t)));
    const missing = options.only.filter((id) => !tasks.some((t) => taskId(t) === id));
    if (missing.length) throw new TenetError(`No task ${missing.join(', ')} in ${tasksFile}.`);
  }
  if (options.limit) tasks = tasks.slice(0, options.limit);
  if (!tasks.length) throw new TenetError(`${tasksFile} has no task to run.`);
  const config = await loadConfig(undefined);
  const modelFor = modelsForTasks(config, options.model);
  const sandbox: SandboxSpec = sandboxSpec(onSwarm ? {} : options.sandbox, onSwarm ? {} : config);
  const chosen = options.settings;
  // A benchmark's strategy and TDD iterations are its flags' (else the papers'), not the config files'.
  const settings = resolveSettings(
    {
      ...chosen,
      strategy: chosen.strategy ?? 'tenet',
      tddBudget: { iterations: chosen.tddBudget?.iterations ?? TDD_PAPER_BUDGET.iterations },
    },
    config,
  );
  const sample = modelFor(tasks[0]!).settings;
  // The configuration a report row stands for (where it ran and how parallel are not part of it).
  const recorded = {
    strategy: settings.strategy,
    provider: sample.provider,
    model: sample.model,
    ...(sample.baseUrl ? { baseUrl: sample.baseUrl } : {}),
    // The script is the model: its content too (a script edited in place is another model).
    ...(options.model.script
      ? {
          script: resolve(options.model.script),
          scriptSha256: createHash('sha256').update(readFileSync(options.model.script)).digest('hex'),
        }
      : {}),
    T: Number.isFinite(settings.T) ? settings.T : 'all',
    // Only when not the default, so the folders of runs made before it could be chosen still match.
    ...(settings.caller !== 'use' ? { caller: settings.caller } : {}),
    select: settings.select,
    testStage: settings.testStage,
    ablations: settings.ablations,
    budget: settings.budget,
    ...(settings.strategy !== 'tenet' ? { tddBudget: settings.tddBudget } : {}),
    // Per task: each session stops at them.
    ...(Object.keys(settings.limits).length ? { limits: settings.limits } : {}),
    // On a swarm, Python is the runner image's (another interpreter than here): another configuration.
    sandbox: onSwarm ? 'swarm' : sandbox.kind,
  };
  const label = options.label ?? defaultLabel(recorded);
  const controller = new AbortController();
  // Ctrl-C: the tasks under way stop (their sessions are saved as interrupted) and the finished
  // ones stay in results.jsonl; the same command goes on from there.
  setSignalHandler((signal) => {
    controller.abort();
    process.stderr.write(`\ntenet: ${signal}: stopping; \`tenet bench run\` with the same --out goes on from here\n`);
    process.exit(signalExitCode(signal));
  });
  const swarm = onSwarm ? await openSwarm(options, tasks, config, settings, sample) : undefined;
  let results: Awaited<ReturnType<typeof runBench>>;
  try {
    results = await runBench({
      tasks,
      tasksFile,
      runDir: resolve(options.out),
      label,
      config: recorded,
      settings,
      modelFor,
      sandbox,
      ...(swarm ? { runElsewhere: (task: BenchTask, sessions: string) => runOnSwarm(swarm, task, sessions) } : {}),
      parallel: options.parallel,
      ...(options.reposRoot ? { reposRoot: resolve(options.reposRoot) } : {}),
      ...(options.retryErrors ? { retryErrors: true } : {}),
      signal: controller.signal,
      onProgress: options.json ? undefined : progressPrinter(),
    });
  } finally {
    await swarm?.close();
  }
  const passed = results.filter((r) => r.pass).length;
  if (options.json)
    process.stdout.write(
      `${JSON.stringify({ runDir: resolve(options.out), label, tasks: tasks.length, finished: results.length, passed, passAt1: results.length ? passed / results.length : 0 })}\n`,
    );
  else
    process.stdout.write(
      `${label}: ${passed}/${results.length} passed (Pass@1 ${results.length ? ((100 * passed) / results.length).toFixed(1) : '0.0'}%) · results in ${resolve(options.out)} · \`tenet bench report ${options.out}\`\n`,
    );
  return EXIT.pass;
}

/** The run's swarm side: the per-run image, the key as a secret (see swarm/swarm-run.ts). */
async function openSwarm(
  options: BenchRunCommandOptions,
  tasks: BenchTask[],
  config: TenetConfig,
  settings: RunSettings,
  sample: ModelSettings,
) {
  const provider = sample.provider;
  // The key as this machine's environment gives it; the container gets it as a secret file.
  const keyVariable =
    provider === 'openai' ? 'OPENAI_API_KEY' : provider === 'anthropic' ? 'ANTHROPIC_API_KEY' : undefined;
  const key = keyVariable ? process.env[keyVariable] : undefined;
  return openSwarmRun({
    ...options.swarm!,
    ...(options.sandbox.dockerHost ? { dockerHost: options.sandbox.dockerHost } : {}),
    ...(options.sandbox.cpus ? { cpus: options.sandbox.cpus } : {}),
    ...(options.sandbox.memory ? { memory: options.sandbox.memory } : {}),
    runDir: resolve(options.out),
    tasks,
    ...(options.reposRoot ? { reposRoot: resolve(options.reposRoot) } : {}),
    spec: {
      settings: specSettings(settings),
      // The base URL as resolved here (flag, environment or config): the container has neither this environment nor these files.
      model: {
        ...options.model,
        provider,
        model: sample.model,
        ...(sample.baseUrl ? { baseUrl: sample.baseUrl } : {}),
      },
      config,
      ...(key && keyVariable ? { keyVariable } : {}),
    },
    ...(options.model.script ? { script: readFileSync(options.model.script, 'utf8') } : {}),
    ...(key ? { key } : {}),
    onLine: options.json ? undefined : (line) => process.stderr.write(`${line}\n`),
  });
}

/** `tenet/gpt-4.1-mini`, `tdd/scripted -thm T=5 select=random stage=postgen`: the settings that differ from the paper's. */
function defaultLabel(c: {
  strategy: string;
  model: string;
  T: number | string;
  select: string;
  testStage: string;
  ablations: { noThm: boolean; noApis: boolean; noRrw: boolean };
  limits?: SpendLimits;
}): string {
  return [
    `${c.strategy}/${c.model}`,
    c.ablations.noThm ? '-thm' : '',
    c.ablations.noApis ? '-apis' : '',
    c.ablations.noRrw ? '-rrw' : '',
    c.T !== 3 ? `T=${c.T}` : '',
    c.select !== 'thm' ? `select=${c.select}` : '',
    c.testStage !== 'all' ? `stage=${c.testStage}` : '',
    c.limits?.maxCostUsd !== undefined ? `max=$${c.limits.maxCostUsd}` : '',
    c.limits?.maxTokens !== undefined ? `max=${c.limits.maxTokens}tok` : '',
  ]
    .filter(Boolean)
    .join(' ');
}
