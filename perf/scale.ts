/**
 * perf/scale: benchmark throughput, in tasks per minute, with a scripted model that plays each
 * task's ground truth (so the harness is what is measured), at --parallel 1, 2 and 4, locally and
 * in Docker; and where a task's time goes (THM, the toolbox and index, the agent, the evaluation).
 *
 *   npm run perf:scale [-- --tasks N --no-docker]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PAPER_BUDGET } from '../source/engine/agent/tenet-strategy';
import { runBench } from '../source/engine/bench/run-bench';
import { resolveSettings } from '../source/engine/run/run-settings';
import { sessionsOf } from '../source/engine/bench/run-dir';
import { readTasks, type BenchTask } from '../source/engine/bench/task';
import { modelsForTasks } from '../source/engine/bench/task-model';
import type { EngineEvent } from '../source/engine/events';
import { LOCAL, type SandboxSpec } from '../source/engine/sandbox/create-sandbox';
import { containerLimits } from '../source/engine/sandbox/docker/limits';
import { DEFAULT_IMAGE } from '../source/engine/sandbox/docker/names';
import { loadEvents } from '../source/engine/session/event-log';
import { eventsFile } from '../source/engine/session/paths';
import { THM_DEFAULTS } from '../source/engine/thm/run-thm';

const argv = process.argv.slice(2);
const count = argv.includes('--tasks') ? Number(argv[argv.indexOf('--tasks') + 1]) : 8;
const withDocker = !argv.includes('--no-docker');
const shop = join(import.meta.dirname, '..', 'test', 'fixtures', 'shop');
const scratch = mkdtempSync(join(tmpdir(), 'tenet-perf-scale-'));

// Four targets of the shop fixture, repeated to `count` tasks (each task gets its own workspace).
const targets = [
  [
    'shop/pricing.py',
    'apply_discount',
    'def apply_discount(price, percent):\n    if percent < 0 or percent > 100:\n        raise ValueError("percent must be within 0..100")\n    return round(price * (100 - percent) / 100, 2)\n',
    'tests/test_pricing.py',
  ],
  [
    'shop/cart.py',
    'Cart.total',
    '    def total(self):\n        return discount(self.subtotal(), self.percent)\n',
    'tests/test_cart.py',
  ],
  [
    'shop/cart.py',
    'Cart.subtotal',
    '    def subtotal(self):\n        return sum(price * quantity for _, price, quantity in self.lines)\n',
    'tests/test_cart.py',
  ],
  [
    'shop/pricing.py',
    'cart_total',
    'def cart_total(prices, percent=0):\n    return apply_discount(sum(prices), percent)\n',
    'tests/test_pricing.py',
  ],
] as const;
const tasksFile = join(scratch, 'tasks.jsonl');
writeFileSync(
  tasksFile,
  `${Array.from({ length: count }, (_, i) => {
    const [file, qualname, full, tests] = targets[i % targets.length]!;
    return JSON.stringify({
      repository: 'shop',
      repo_id: String(i),
      target_module_path: file,
      function_name: qualname,
      prompt: '',
      full_function: full,
      relavent_test_path: tests,
      tenet: { repo: shop, target: `${file}::${qualname}`, testArgs: [tests], failing: [] },
    });
  }).join('\n')}\n`,
);
const script = join(scratch, 'oracle.json');
writeFileSync(
  script,
  JSON.stringify({ turns: [{ calls: [{ name: 'submit_implementation', arguments: { code: '{{full_function}}' } }] }] }),
);
const tasks: BenchTask[] = readTasks(tasksFile);
const modelFor = modelsForTasks({}, { provider: 'scripted', script });

/** Seconds between two events of a session's log. */
function phases(runDir: string, sessionId: string) {
  const events = loadEvents(eventsFile(sessionsOf(runDir), sessionId)).events as (EngineEvent & { ts: string })[];
  const at = (match: (e: EngineEvent) => boolean) => Date.parse(events.find(match)?.ts ?? '') || NaN;
  const start = at((e) => e.type === 'session.start');
  const thm = at((e) => e.type === 'thm.report');
  const index = at((e) => e.type === 'index.ready');
  const evaluate = at((e) => e.type === 'agent.phase' && e.phase === 'evaluate');
  const end = at((e) => e.type === 'result');
  return { thm: thm - start, toolbox: index - thm, agent: evaluate - index, evaluation: end - evaluate };
}

const rows: string[] = [];
const configs: [string, SandboxSpec][] = [
  ['local', LOCAL],
  ...(withDocker
    ? [
        ['docker', { kind: 'docker', image: DEFAULT_IMAGE, limits: containerLimits({ memory: '1g' }) }] as [
          string,
          SandboxSpec,
        ],
      ]
    : []),
];
try {
  for (const [name, sandbox] of configs) {
    for (const parallel of [1, 2, 4]) {
      const runDir = join(scratch, `${name}-${parallel}`);
      const started = performance.now();
      const results = await runBench({
        tasks,
        tasksFile,
        runDir,
        label: `${name} ×${parallel}`,
        config: { name, parallel },
        settings: resolveSettings(
          {
            T: 3,
            jobs: 1,
            onePass: true,
            testTimeoutSec: 60,
            thmTimeoutSec: THM_DEFAULTS.timeoutSec,
            budget: PAPER_BUDGET,
          },
          {},
        ),
        modelFor,
        sandbox,
        parallel,
      });
      const seconds = (performance.now() - started) / 1000;
      const passed = results.filter((r) => r.pass).length;
      // Setup: the workspace copy, the interpreter check (and in Docker the container) before the session starts.
      const p = results.map((r) => {
        const x = phases(runDir, r.sessionId);
        return { ...x, setup: r.wallMs - x.thm - x.toolbox - x.agent - x.evaluation };
      });
      const mean = (key: keyof (typeof p)[number]) =>
        (p.reduce((sum, x) => sum + x[key], 0) / p.length / 1000).toFixed(2);
      const taskSeconds = results.reduce((sum, r) => sum + r.wallMs, 0) / results.length / 1000;
      rows.push(
        `${name.padEnd(7)} ${String(parallel).padStart(8)} ${(results.length / (seconds / 60)).toFixed(1).padStart(10)} ${seconds.toFixed(1).padStart(8)} s ${`${passed}/${results.length}`.padStart(6)} ${taskSeconds.toFixed(2).padStart(8)} s   setup ${mean('setup')} · thm ${mean('thm')} · toolbox ${mean('toolbox')} · agent ${mean('agent')} · evaluation ${mean('evaluation')}`,
      );
      console.log(rows.at(-1));
    }
  }
  console.log(`\n${count} tasks of the shop fixture, scripted model playing the ground truth, 2 cores`);
  console.log(`sandbox  parallel  tasks/min    total   passed  per task   where a task's time goes (mean seconds)`);
  for (const row of rows) console.log(row);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
