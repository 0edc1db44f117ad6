import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ThmReport } from '../../source/engine/protocol/thm-report';
import { jsonEvents, runCli, type CliResult } from './cli';
import { startFakeModelServer } from './fake-model-server';
import { copyFixture } from './fixtures';

/**
 * The stubgeo fixture as a developer practising TDD has it: some functions still stubs. In the
 * fixture itself only `describe`, `Point.moved` and `summary` are stubs, and `parse_length` has a
 * bug of its own; these are the bodies that can be stubbed on top, each with its right body.
 */
export const GEO_BODIES = {
  area: { file: 'geo/shapes.py', body: '    return width * height\n' },
  perimeter: { file: 'geo/shapes.py', body: '    return 2 * (width + height)\n' },
  'Point.__repr__': { file: 'geo/point.py', body: '        return f"Point({self.x}, {self.y})"\n' },
  'Point.scaled': { file: 'geo/point.py', body: '        return Point(self.x * factor, self.y * factor)\n' },
} as const;
export type GeoFunction = keyof typeof GEO_BODIES;

/** The right implementation of each, as a model submits it, and a wrong one. */
export const GEO_SUBMISSIONS: Record<GeoFunction, { right: string; wrong: string }> = {
  area: {
    right: 'def area(width, height):\n    """The rectangle\'s area."""\n    return width * height\n',
    wrong: 'def area(width, height):\n    """The rectangle\'s area."""\n    return width + height\n',
  },
  perimeter: {
    right: 'def perimeter(width, height):\n    return 2 * (width + height)\n',
    wrong: 'def perimeter(width, height):\n    return width + height\n',
  },
  'Point.__repr__': {
    right: 'def __repr__(self):\n    return f"Point({self.x}, {self.y})"\n',
    wrong: 'def __repr__(self):\n    return f"({self.x}, {self.y})"\n',
  },
  'Point.scaled': {
    right: 'def scaled(self, factor):\n    return Point(self.x * factor, self.y * factor)\n',
    wrong: 'def scaled(self, factor):\n    return Point(self.x * factor, self.y * factor * factor)\n',
  },
};

/** The fixture's own stubs (as they are in it), with the bodies that implement them. */
const FIXTURE_STUBS = [
  {
    file: 'geo/shapes.py',
    stub: '    """A line about the rectangle: `2x3 rectangle, area 6, perimeter 10`."""\n    raise NotImplementedError\n',
    body: '    return f"{width}x{height} rectangle, area {area(width, height)}, perimeter {perimeter(width, height)}"\n',
  },
  {
    file: 'geo/point.py',
    stub: '        """The point moved by dx and dy."""\n        pass\n',
    body: '        return Point(self.x + dx, self.y + dy)\n',
  },
  {
    file: 'geo/report.py',
    stub: '    """One line per rectangle (width, height): `2x3: 6`."""\n    raise NotImplementedError\n',
    body: '    return "\\n".join(f"{w}x{h}: {area(w, h)}" for w, h in sizes)\n',
  },
];

function replaceIn(path: string, from: string, to: string): void {
  const text = readFileSync(path, 'utf8');
  if (!text.includes(from)) throw new Error(`stubgeo: ${path} has no ${JSON.stringify(from)}`);
  writeFileSync(path, text.replace(from, to));
}

/**
 * A copy of stubgeo with these functions stubbed (their body `raise NotImplementedError`, the
 * docstring kept). `alone`: the fixture's own stubs (`describe`, `Point.moved`, `summary`) get
 * their bodies, so the ones stubbed here are the only stubs.
 */
export function geoWithStubs(
  stubs: readonly GeoFunction[],
  { alone = false }: { alone?: boolean } = {},
): { dir: string; cleanup: () => void } {
  const repo = copyFixture('stubgeo');
  if (alone)
    for (const { file, stub, body } of FIXTURE_STUBS)
      replaceIn(join(repo.dir, file), stub, stub.slice(0, stub.lastIndexOf('\n', stub.length - 2) + 1) + body);
  for (const name of stubs) {
    const { file, body } = GEO_BODIES[name];
    const indent = body.slice(0, body.length - body.trimStart().length);
    replaceIn(join(repo.dir, file), body, `${indent}raise NotImplementedError\n`);
  }
  return repo;
}

export interface GeoRun {
  cli: CliResult;
  report: ThmReport;
  result: {
    sessionId: string;
    pass: boolean;
    stopReason: string;
    selectedTests: { passed: number; total: number };
    hiddenTests: { passed: number; total: number };
    tests: Record<string, string>;
  };
  /** The tests the evaluation ran. */
  evaluated: string[];
  hidden: string[];
}

/**
 * `tenet run --json` on the repository, the target `file::qualname`, against a fake OpenAI server
 * whose model submits `code` at once; no refinement, so a wrong body is judged as it is.
 */
export async function runGeo(repo: string, target: string, code: string, extra: string[] = []): Promise<GeoRun> {
  const server = await startFakeModelServer([{ calls: [{ name: 'submit_implementation', arguments: { code } }] }]);
  try {
    const cli = await runCli(
      [
        'run',
        '--repo',
        repo,
        '--target',
        target,
        '--provider',
        'openai',
        '--model',
        'gpt-4o-mini',
        '--rrw-attempts',
        '0',
        '--json',
        ...extra,
      ],
      { env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${server.url}/v1` } },
    );
    const events = jsonEvents(cli.stdout) as unknown as { type: string; [key: string]: unknown }[];
    const report = events.find((e) => e.type === 'thm.report')?.report as ThmReport | undefined;
    const result = events.find((e) => e.type === 'result') as unknown as GeoRun['result'] | undefined;
    if (!report || !result) throw new Error(`no THM report or result (exit ${cli.code}):\n${cli.stderr.slice(-3000)}`);
    const evaluation = events.find((e) => e.type === 'tests.run' && e.purpose === 'evaluate') as
      | { outcomes: Record<string, string> }
      | undefined;
    const hidden = (events.find((e) => e.type === 'tests.hidden')?.hidden as string[] | undefined) ?? [];
    return { cli, report, result, evaluated: Object.keys(evaluation?.outcomes ?? {}).sort(), hidden };
  } finally {
    await server.close();
  }
}

/** The node ids of THM's failing tests that are not the target's, and where each stopped (`file::qualname`). */
export const stoppedIn = (report: ThmReport): Record<string, string | undefined> =>
  Object.fromEntries((report.otherFailures ?? []).map((f) => [f.nodeid, f.stoppedAt?.name]));
