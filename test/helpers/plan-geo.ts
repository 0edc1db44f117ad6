import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EngineEvent, EventOf, RunResult } from '../../source/engine/events';
import { runCli, type CliResult, jsonEvents } from './cli';
import { startFakeModelServer, type FakeTurn } from './fake-model-server';
import { GEO_SUBMISSIONS, geoWithStubs } from './stub-geo';

/** The describe line the fixture's module keeps: the body that calls area and perimeter. */
const DESCRIBE_BODY =
  '    return f"{width}x{height} rectangle, area {area(width, height)}, perimeter {perimeter(width, height)}"\n';

/**
 * stubgeo as a developer starting a module in TDD has it: geo/shapes.py with three stubs,
 * `describe` first, which needs `area` and `perimeter` after it; the fixture's other stubs
 * implemented, so the module's three are the only stubs.
 */
/** The three stubs of `geo/shapes.py`, as plan targets. */
export const [DESCRIBE, AREA, PERIMETER] = ['describe', 'area', 'perimeter'].map(
  (name) => `geo/shapes.py::${name}`,
) as [string, string, string];

export function threeStubs(): { dir: string; cleanup: () => void } {
  const repo = geoWithStubs(['area', 'perimeter'], { alone: true });
  const shapes = join(repo.dir, 'geo', 'shapes.py');
  const text = readFileSync(shapes, 'utf8');
  if (!text.includes(DESCRIBE_BODY)) throw new Error('plan-geo: describe has changed in the fixture');
  writeFileSync(shapes, text.replace(DESCRIBE_BODY, '    raise NotImplementedError\n'));
  return repo;
}

/** The right bodies, as a model submits them. */
export const PLAN_CODE = {
  describe: `def describe(width, height):\n${DESCRIBE_BODY}`,
  area: GEO_SUBMISSIONS.area.right,
  perimeter: GEO_SUBMISSIONS.perimeter.right,
};

export const submitting = (code: string, say = 'Submitting.'): FakeTurn => ({
  say,
  calls: [{ name: 'submit_implementation', arguments: { code } }],
});

export interface PlanRunResult {
  cli: CliResult;
  events: EngineEvent[];
  result: RunResult;
  /** Every request the model server got (the conversations, in order). */
  requests: { body: Record<string, unknown> }[];
}

export const eventsOf = <T extends EngineEvent['type']>(events: readonly EngineEvent[], type: T) =>
  events.filter((e): e is EventOf<T> => e.type === type);

/** `tenet run --json` with these arguments against a fake server of `provider` playing `turns`. */
export async function runPlanCli(
  provider: 'openai' | 'anthropic',
  turns: FakeTurn[],
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<PlanRunResult> {
  const server = await startFakeModelServer(turns);
  try {
    const keys =
      provider === 'openai'
        ? { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${server.url}/v1` }
        : { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: server.url };
    const cli = await runCli(
      [
        'run',
        ...args,
        '--provider',
        provider,
        '--model',
        provider === 'openai' ? 'gpt-4o-mini' : 'claude-sonnet-4-6',
        '--json',
      ],
      { env: { ...keys, XDG_CONFIG_HOME: '/nonexistent', ...env } },
    );
    const events = jsonEvents(cli.stdout);
    const result = events.find((e): e is RunResult => e.type === 'result');
    if (!result) throw new Error(`no result (exit ${cli.code}):\n${cli.stderr.slice(-3000)}`);
    return { cli, events, result, requests: server.requests };
  } finally {
    await server.close();
  }
}
