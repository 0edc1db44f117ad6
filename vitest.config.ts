import { defineConfig } from 'vitest/config';
import { LongestFirst } from './test/setup/longest-first.ts';

/**
 * Three projects (CONTRIBUTING.md, "The test suite"):
 * - unit and ui: pure functions and Ink components, CPU-bound and fast. They run first, without
 *   isolation, in one worker per core: each worker's files share one module graph, imported once
 *   (that halves their time against a fresh graph per file; a second worker costs one more import
 *   of the graph, about 4 CPU-seconds, and uses the core that one worker left idle: 67 s → 53 s on
 *   a loaded 2-core machine). A test that leaks state into another file is a bug of that test.
 * - e2e: everything else under test/ (a new folder lands here by default). Its files spawn the
 *   built CLI, pytest, docker and chromium and mostly wait on them, so more files run at once than
 *   there are cores. A worker process runs file after file (a fresh process per file cost 0.4 CPU-s
 *   a file); test/setup/fresh-modules.ts gives each file its own helpers' state and environment.
 *   Its global setup records the demo session once, gives the parts of qa:thm's CI sample a
 *   folder where they make each suite's set-up once (qa/suite-setup.ts), and, where Docker tests
 *   are required and the engine lacks the default image, builds it while the tests run.
 */
const UNIT = ['test/unit/**/*.test.{ts,tsx}'];
const UI = ['test/ui/**/*.test.{ts,tsx}'];
/** Projects run in groups, one group after the other; a group has one number of workers. */
const fast = { isolate: false, maxWorkers: 2, sequence: { groupOrder: 0 } };

/**
 * End-to-end files at once. They wait on child processes most of the time (the CPUs were about a
 * quarter busy with two at once on two cores); past this the children crowd the cores and every
 * test's own timeouts come closer. TENET_TEST_E2E_WORKERS overrides it for a bigger machine.
 */
const E2E_WORKERS = Number(process.env.TENET_TEST_E2E_WORKERS) || 6;

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    sequence: { sequencer: LongestFirst },
    projects: [
      { extends: true, test: { name: 'unit', include: UNIT, ...fast } },
      { extends: true, test: { name: 'ui', include: UI, ...fast } },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/**/*.test.{ts,tsx}'],
          exclude: [...UNIT, ...UI],
          // The image's build first: it starts a minute of work in the background.
          globalSetup: ['test/setup/docker-image.ts', 'test/setup/demo-session.ts', 'test/setup/qa-shared.ts'],
          isolate: false,
          setupFiles: ['test/setup/fresh-modules.ts', 'test/setup/file-times.ts'],
          // pytest without the interpreter's own plugins, unless a file asks for them
          // (test/helpers/pytest-plugins.ts): half a trivial run's start, a thousand times over.
          env: { PYTEST_DISABLE_PLUGIN_AUTOLOAD: '1' },
          maxWorkers: E2E_WORKERS,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
