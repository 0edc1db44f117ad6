import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Docker from 'dockerode';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readResults } from '../../source/engine/bench/run-dir';
import { Catalog } from '../../source/engine/session/catalog';
import { swarmRunKey } from '../../source/engine/swarm/swarm-run';
import { finished, runCli, startCli, waitFor } from '../helpers/cli';
import { withEngineGcLock } from '../helpers/engine-lock';
import { copyFixture, treeHash } from '../helpers/fixtures';
import { describeDocker } from '../helpers/sandboxes';
import { startFakeModelService, useSwarm } from '../helpers/swarm';

/**
 * `tenet bench run --on swarm` on a one-node swarm of the machine's engine (made for the test and
 * left at the end, unless the engine was in one already): three tasks from `bench make`, the model
 * a fake OpenAI-compatible oracle running as a service on an overlay network the tasks join, its
 * key a Swarm secret. Everything the test makes is named with its own prefix: other tests use the
 * same engine at the same time.
 */
const docker = new Docker();
const prefix = `tenet-swarmtest-${process.pid}`;
const runnerImage = `${prefix}-runner:test`;
const network = `${prefix}-net`;
/** Shaped like an OpenAI key, so that it would be redacted anywhere tenet prints it: the check is on Docker's side. */
const KEY = `sk-swarmtest${process.pid}abcdefghijklmnop`;
const scratch = mkdtempSync(join(tmpdir(), 'tenet-bench-swarm-'));
const shop = copyFixture('shop');

const script = (name: string, turns: unknown[]) => {
  const file = join(scratch, `${name}.json`);
  writeFileSync(file, JSON.stringify({ label: name, turns }));
  return file;
};
/** Waits in the shell first: time to kill the task's container mid-run. */
const SLOW_ORACLE = script('slow', [
  { calls: [{ name: 'run_debugger_cmd', arguments: { cmd: 'sleep 4' } }] },
  { calls: [{ name: 'submit_implementation', arguments: { code: '{{full_function}}' } }] },
]);

/** What of a run (by its key) is on the engine: services, secrets, images. */
/** The containers of a swarm run's tasks running on this engine (their ids, one a line). */
const runContainers = (key: string) =>
  execFileSync('docker', ['ps', '-q', '--filter', `label=dev.tenet.swarm-run=${key}`], { encoding: 'utf8' }).trim();

/** Waits for a task of the run to have a container running. */
const taskContainerUp = (key: string, what: string) => waitFor(() => runContainers(key) !== '', 120_000, what);

async function leftovers(key: string): Promise<string[]> {
  const filters = JSON.stringify({ label: [`dev.tenet.swarm-run=${key}`] });
  const services = (await docker.listServices({ filters })) as { Spec: { Name: string } }[];
  const secrets = (await docker.listSecrets({ filters })) as { Spec: { Name: string } }[];
  const images = (await docker.listImages({ filters })) as { Id: string; RepoTags?: string[] }[];
  return [
    ...services.map((s) => `service ${s.Spec.Name}`),
    ...secrets.map((s) => `secret ${s.Spec.Name}`),
    ...images.map((i) => `image ${i.RepoTags?.[0] ?? i.Id}`),
  ];
}

describeDocker('tenet bench run --on swarm', () => {
  let swarm: { leave(): Promise<void> } | undefined;
  let fake: { url: string; remove(): Promise<void> } | undefined;
  let tasks = '';
  const before = treeHash(shop.dir);

  beforeAll(async () => {
    swarm = await useSwarm(docker);
    const built = await runCli(['image', 'build', '--runner', '--tag', runnerImage, '--quiet']);
    expect(built.code, built.stderr).toBe(0);
    tasks = join(scratch, 'tasks.jsonl');
    const made = await runCli(['bench', 'make', '--repo', shop.dir, '--out', tasks, '--count', '3']);
    expect(made.code, made.stderr).toBe(0);
    await docker.createNetwork({
      Name: network,
      Driver: 'overlay',
      Attachable: true,
      Labels: { 'dev.tenet.test': prefix },
    });
    fake = await startFakeModelService(docker, {
      prefix,
      image: runnerImage,
      network,
      tasksFile: tasks,
      key: KEY,
      bundleDir: scratch,
    });
  }, 180_000);

  afterAll(async () => {
    await fake?.remove();
    for (
      let i = 0;
      i < 20 &&
      !(await docker
        .getNetwork(network)
        .remove()
        .then(
          () => true,
          (e: { statusCode?: number }) => e.statusCode === 404,
        ));
      i++
    )
      await new Promise((r) => setTimeout(r, 500));
    // Not forced: while the fake model's container is still going, that would only untag the image and leave it.
    for (
      let i = 0;
      i < 40 &&
      !(await docker
        .getImage(runnerImage)
        .remove()
        .then(
          () => true,
          (e: { statusCode?: number }) => e.statusCode === 404,
        ));
      i++
    )
      await new Promise((r) => setTimeout(r, 500));
    await swarm?.leave();
    rmSync(scratch, { recursive: true, force: true });
    shop.cleanup();
  }, 60_000);

  it('three tasks, two at a time, against the fake model over the overlay network: Pass@1 100%, sessions tenet show reads, the key never in the services, nothing left', async () => {
    const out = join(scratch, 'fake');
    const child = startCli(
      [
        'bench',
        'run',
        tasks,
        '--out',
        out,
        '--on',
        'swarm',
        '--parallel',
        '2',
        '--runner-image',
        runnerImage,
        '--network',
        network,
        '--provider',
        'openai',
        '--base-url',
        fake!.url,
        '--model',
        'gpt-4.1-mini',
        '--cpus',
        '1',
        '--memory',
        '1g',
        '--json',
      ],
      { env: { OPENAI_API_KEY: KEY } },
    );
    const ended = finished(child);
    // While a task runs: its service, as `docker service inspect` shows it, has the secret but not the key.
    let inspected = '';
    await waitFor(
      () => {
        const names = execFileSync(
          'docker',
          ['service', 'ls', '--filter', 'label=dev.tenet.swarm-run', '--format', '{{.Name}}'],
          { encoding: 'utf8' },
        )
          .split('\n')
          .filter((n) => n && !n.startsWith(prefix));
        if (!names.length) return false;
        try {
          inspected = execFileSync('docker', ['service', 'inspect', names[0]!], { encoding: 'utf8' });
        } catch {
          return false; // gone between the two calls
        }
        return true;
      },
      120_000,
      'a task service',
    );
    expect(inspected).toMatch(/"Secrets": \[\s*\{\s*"File": \{\s*"Name": "tenet-api-key"/);
    expect(inspected).not.toContain(KEY);
    expect(inspected).not.toContain(Buffer.from(KEY).toString('base64'));
    const result = await ended;
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ tasks: 3, finished: 3, passed: 3, passAt1: 1 });
    const results = readResults(out);
    expect(results.map((r) => [r.taskId, r.pass, r.stopReason, r.attempts]).sort()).toEqual([
      ['shop-0', true, 'passed', 1],
      ['shop-1', true, 'passed', 1],
      ['shop-2', true, 'passed', 1],
    ]);
    expect(results.every((r) => r.host?.startsWith('swarm:') && r.usage.modelCalls === 1)).toBe(true);
    // The sessions are in the run folder, as a local run leaves them; `tenet show` reads them.
    const sessions = join(out, 'sessions');
    expect(
      new Catalog(sessions)
        .list()
        .map((s) => [s.target, s.status])
        .sort(),
    ).toEqual([
      ['shop/pricing.py::apply_discount', 'passed'],
      ['shop/tree.py::category_total', 'passed'],
      ['shop/tree.py::count_leaves', 'passed'],
    ]);
    const shown = await runCli(['show', results[0]!.sessionId, '--sessions-dir', sessions]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(results[0]!.target);
    expect(shown.stdout).not.toContain(KEY);
    const replayed = await runCli(['replay', results[0]!.sessionId, '--sessions-dir', sessions, '--json']);
    expect(replayed.code, replayed.stderr).toBe(0);
    expect(replayed.stdout).toContain('"type":"result"');
    const exported = await runCli(['export', results[0]!.sessionId, '--sessions-dir', sessions, '--format', 'json']);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toContain(results[0]!.sessionId);
    const report = await runCli(['bench', 'report', out, '--format', 'json']);
    expect(JSON.parse(report.stdout).configurations[0].overall).toMatchObject({ tasks: 3, passed: 3, passAt1: 1 });
    // No service, secret or image of the run is left.
    expect(await leftovers(swarmRunKey(out))).toEqual([]);
    expect(treeHash(shop.dir)).toBe(before);
  }, 240_000);

  it('a task whose container is killed mid-run is run again by the engine, and counted once', async () => {
    const out = join(scratch, 'killed');
    const child = startCli([
      'bench',
      'run',
      tasks,
      '--out',
      out,
      '--on',
      'swarm',
      '--runner-image',
      runnerImage,
      '--provider',
      'scripted',
      '--script',
      SLOW_ORACLE,
      '--task',
      'shop-0',
      '--json',
    ]);
    const ended = finished(child);
    const key = swarmRunKey(out);
    // Killed once its session is under way: the coordinator has recorded what the container sent.
    const sessions = join(out, 'sessions');
    await waitFor(
      () =>
        existsSync(sessions) &&
        readdirSync(sessions).some(
          (d) =>
            existsSync(join(sessions, d, 'events.jsonl')) &&
            readFileSync(join(sessions, d, 'events.jsonl'), 'utf8').includes('run_debugger_cmd'),
        ),
      120_000,
      'the task to reach its shell command',
    );
    const container = runContainers(key);
    expect(container).not.toBe('');
    execFileSync('docker', ['kill', container]);
    const result = await ended;
    expect(result.code, result.stderr).toBe(0);
    const lines = readFileSync(join(out, 'results.jsonl'), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ taskId: 'shop-0', pass: true, stopReason: 'passed', attempts: 2 });
    // The session is the attempt that finished: one start, one result, nothing of the killed one.
    const events = readFileSync(join(sessions, JSON.parse(lines[0]!).sessionId, 'events.jsonl'), 'utf8');
    expect(events.match(/"type":"session\.start"/g)).toHaveLength(1);
    expect(events.match(/"type":"result"/g)).toHaveLength(1);
    expect(await leftovers(key)).toEqual([]);
  }, 240_000);

  it('a task no node can place (more --cpus than any has) is an error that says why, not a wait without end', async () => {
    const out = join(scratch, 'too-big');
    const result = await runCli([
      'bench',
      'run',
      tasks,
      '--out',
      out,
      '--on',
      'swarm',
      '--runner-image',
      runnerImage,
      '--provider',
      'scripted',
      '--script',
      SLOW_ORACLE,
      '--task',
      'shop-0',
      '--cpus',
      '512',
      '--json',
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(readResults(out)).toEqual([
      expect.objectContaining({
        taskId: 'shop-0',
        pass: false,
        stopReason: 'error',
        error: expect.stringMatching(
          /^The swarm cannot place the task: no suitable node \(insufficient resources.*Ask for less with --cpus and --memory, or add nodes\.$/,
        ),
      }),
    ]);
    expect(await leftovers(swarmRunKey(out))).toEqual([]);
  }, 120_000);

  it('stopped with SIGTERM mid-run, it removes its services, secret and image on the way out', async () => {
    const out = join(scratch, 'stopped');
    const child = startCli(
      [
        'bench',
        'run',
        tasks,
        '--out',
        out,
        '--on',
        'swarm',
        '--runner-image',
        runnerImage,
        '--provider',
        'scripted',
        '--script',
        SLOW_ORACLE,
        '--task',
        'shop-2',
        '--json',
      ],
      { env: { OPENAI_API_KEY: KEY } },
    );
    const key = swarmRunKey(out);
    await taskContainerUp(key, 'the task container');
    child.kill('SIGTERM');
    const result = await finished(child);
    expect(result.code).toBe(143);
    expect(await leftovers(key)).toEqual([]);
  }, 240_000);

  it('a coordinator killed outright leaves its services: `tenet gc` removes them, or the same command does before it goes on', async () => {
    const out = join(scratch, 'gc');
    const args = [
      'bench',
      'run',
      tasks,
      '--out',
      out,
      '--on',
      'swarm',
      '--runner-image',
      runnerImage,
      '--provider',
      'scripted',
      '--script',
      SLOW_ORACLE,
      '--task',
      'shop-1',
      '--json',
    ];
    const key = swarmRunKey(out);
    // From the kill to gc's answer, no other file's global gc may take this run's services.
    await withEngineGcLock(async () => {
      const child = startCli(args);
      await taskContainerUp(key, 'the task container');
      child.kill('SIGKILL');
      await finished(child);
      expect((await leftovers(key)).some((l) => l.startsWith('service '))).toBe(true);
      const gc = await runCli(['gc', '--json']);
      expect(gc.code, gc.stderr).toBe(0);
      expect(JSON.parse(gc.stdout).swarm.removed.map((r: { kind: string }) => r.kind)).toContain('service');
      await waitFor(
        () =>
          execFileSync('docker', ['service', 'ls', '-q', '--filter', `label=dev.tenet.swarm-run=${key}`], {
            encoding: 'utf8',
          }).trim() === '',
        30_000,
        'the services to go',
      );
    });
    const again = await runCli(args);
    expect(again.code, again.stderr).toBe(0);
    expect(readResults(out).map((r) => [r.taskId, r.pass])).toEqual([['shop-1', true]]);
    expect(await leftovers(key)).toEqual([]);
    // Killed outright again, and restarted without gc: the restart finds the run's leftovers and removes them first.
    const next = [...args.slice(0, -2), 'shop-2', '--json'];
    const second = startCli(next);
    await taskContainerUp(key, 'the second task container');
    second.kill('SIGKILL');
    await finished(second);
    expect((await leftovers(key)).some((l) => l.startsWith('service '))).toBe(true);
    const resumed = await runCli(next);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(
      readResults(out)
        .map((r) => [r.taskId, r.pass])
        .sort(),
    ).toEqual([
      ['shop-1', true],
      ['shop-2', true],
    ]);
    expect(await leftovers(key)).toEqual([]);
  }, 300_000);
});
