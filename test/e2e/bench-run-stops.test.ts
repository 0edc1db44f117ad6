import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { finished, runCli, startCli, waitFor } from '../helpers/cli';
import { treeHash } from '../helpers/fixtures';
import { DOCKER_PROBLEM } from '../helpers/sandboxes';
import { ORACLE, SLOW_ORACLE, before, killedMidRun, killedTitle, scratch, shop, tasks } from '../helpers/bench-run';

// Stopping a bench run (a hang-up, a kill) and going on with it; what it refuses.
describe('tenet bench run', () => {
  it('closing its terminal (SIGHUP) stops it as a shell reports a hang-up, 129, and says how to go on', async () => {
    const out = join(scratch, 'hung-up');
    const child = startCli([
      'bench',
      'run',
      tasks,
      '--out',
      out,
      '--provider',
      'scripted',
      '--script',
      SLOW_ORACLE,
      '--parallel',
      '1',
    ]);
    const ended = finished(child);
    await waitFor(() => existsSync(join(out, 'results.jsonl')), 120_000, 'the run to start');
    child.kill('SIGHUP');
    const result = await ended;
    expect(result.code, result.stderr).toBe(129);
    expect(result.stderr).toContain('tenet: SIGHUP: stopping; `tenet bench run` with the same --out goes on from here');
    expect(treeHash(shop.dir)).toBe(before);
  }, 180_000);
  it(killedTitle('local'), () => killedMidRun('local', []), 240_000);
  it.skipIf(!!DOCKER_PROBLEM)(
    killedTitle('docker'),
    () => killedMidRun('docker', ['--sandbox', 'docker', '--parallel', '2']),
    240_000,
  );

  it('two --docker-host are refused: the round-robin over engines is gone (it had no health check or failover), a swarm spreads tasks', async () => {
    const result = await runCli([
      'bench',
      'run',
      tasks,
      '--out',
      join(scratch, 'two-engines'),
      '--provider',
      'scripted',
      '--script',
      ORACLE,
      '--sandbox',
      'docker',
      '--docker-host',
      'unix:///var/run/docker.sock',
      '--docker-host',
      'tcp://10.0.0.2:2375',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--docker-host');
    expect(result.stderr).toContain(
      'given twice (unix:///var/run/docker.sock, tcp://10.0.0.2:2375): bench run uses one engine. To spread tasks over machines, join their engines into a swarm and pass --on swarm.',
    );
    expect(existsSync(join(scratch, 'two-engines'))).toBe(false);
  });

  it('the swarm flags without --on swarm, and --on swarm with --sandbox docker, are refused before anything runs', async () => {
    const alone = await runCli([
      'bench',
      'run',
      tasks,
      '--out',
      join(scratch, 'no-swarm'),
      '--provider',
      'scripted',
      '--script',
      ORACLE,
      '--network',
      'models',
      '--registry',
      'registry:5000',
    ]);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--registry, --network go with --on swarm only.');
    const both = await runCli([
      'bench',
      'run',
      tasks,
      '--out',
      join(scratch, 'no-swarm'),
      '--provider',
      'scripted',
      '--script',
      ORACLE,
      '--on',
      'swarm',
      '--sandbox',
      'docker',
    ]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--on swarm runs each task in a container of its own already');
    expect(existsSync(join(scratch, 'no-swarm'))).toBe(false);
  });
});
