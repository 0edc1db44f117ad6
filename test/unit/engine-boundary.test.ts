import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/fixtures';
import { importGraph } from '../helpers/import-graph';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : /\.tsx?$/.test(entry.name) ? [join(dir, entry.name)] : [],
  );
}

describe('the engine stays free of the UI', () => {
  it('no file under source/engine imports ink, react or source/ui', () => {
    const offenders: string[] = [];
    for (const file of sources(join(ROOT, 'source', 'engine'))) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)) {
        const spec = match[1]!;
        if (/^(ink|react)(\/|$)/.test(spec) || /^ink-/.test(spec) || /(^|\/)ui(\/|$)/.test(spec))
          offenders.push(`${relative(ROOT, file)} imports ${spec}`);
      }
      if (file.endsWith('.tsx')) offenders.push(`${relative(ROOT, file)} is a .tsx file`);
    }
    expect(offenders).toEqual([]);
  });
});

describe('the engine stays free of the commands', () => {
  it('no file under source/engine imports source/commands, source/program or main.ts', () => {
    const graph = importGraph(ROOT, join(ROOT, 'source', 'engine'));
    const above = (target: string) => /^source\/(commands|program)\//.test(target) || target === 'source/main.ts';
    const offenders = [...graph].flatMap(([file, imports]) =>
      imports.filter(above).map((target) => `${file} imports ${target}`),
    );
    expect(graph.size).toBeGreaterThan(100);
    expect(offenders).toEqual([]);
  });
});

describe('the event spine is a leaf', () => {
  it('engine/events.ts and engine/protocol/ import nothing but each other (and zod, which the events are defined in)', () => {
    const graph = importGraph(ROOT, join(ROOT, 'source', 'engine'));
    const spine = (file: string) => file === 'source/engine/events.ts' || file.startsWith('source/engine/protocol/');
    const offenders = [...graph]
      .filter(([file]) => spine(file))
      .flatMap(([file, imports]) =>
        imports.filter((target) => !spine(target) && target !== 'zod').map((target) => `${file} imports ${target}`),
      );
    expect([...graph.keys()].filter(spine).length).toBeGreaterThan(1);
    expect(offenders).toEqual([]);
  });
});

/**
 * The engine's parts, lowest first: a part may import the parts of lower layers, never one of its
 * own layer or above (types and lazy `import()` count: the graph is importGraph's). A part is a
 * folder right under source/engine, or a file there (`events` is events.ts). docs/architecture.md
 * ("The engine's layers") lists the same layers; a new part must be placed here before it is imported.
 */
const ENGINE_LAYERS: readonly (readonly string[])[] = [
  ['protocol'], // the spine: the types the events carry…
  ['events'], // …and the event union
  ['exit-codes'], // how tenet ends: every exit code
  ['errors', 'secrets', 'assets', 'lifecycle', 'version'], // leaves every part may use
  ['util'], // small shared helpers (plural, escapeHtml, redaction, the state folder, process checks)
  ['terminal-text', 'phrase-book'], // words for the developer
  ['config'],
  ['workspace'],
  ['sandbox'],
  ['python-source'],
  ['task', 'index'],
  ['thm'],
  ['tools'],
  ['model', 'eval', 'quality'],
  ['agent'],
  ['session'], // the log, the catalog and the readers of a log (fold, transcript, page)
  ['run'],
  ['bench'],
  ['swarm'], // bench run --on swarm: the runs of bench, as Swarm services
];

/** The part of source/engine a file belongs to (undefined: outside the engine). */
function enginePart(file: string): string | undefined {
  const inside = /^source\/engine\/(.+)$/.exec(file)?.[1];
  if (!inside) return undefined;
  const [first, ...rest] = inside.split('/');
  return rest.length ? first : first!.replace(/\.tsx?$/, '');
}

/** Each import between two parts of the engine that goes sideways or up the layers, as `from -> to (file -> file)`. */
function layerViolations(graph: Map<string, string[]>, layers: readonly (readonly string[])[]): string[] {
  const rank = new Map(layers.flatMap((layer, i) => layer.map((part) => [part, i] as const)));
  const out: string[] = [];
  for (const [file, imports] of graph) {
    const from = enginePart(file);
    if (!from) continue;
    for (const target of imports) {
      const to = enginePart(target);
      if (!to || to === from) continue;
      const fromRank = rank.get(from);
      const toRank = rank.get(to);
      if (fromRank === undefined || toRank === undefined || toRank >= fromRank)
        out.push(`${from} -> ${to} (${file} -> ${target})`);
    }
  }
  return out;
}

describe('the engine is layered', () => {
  const graph = importGraph(ROOT, join(ROOT, 'source', 'engine'));

  it('every part of source/engine has a layer', () => {
    const parts = new Set([...graph.keys()].map((file) => enginePart(file)!));
    const placed = new Set(ENGINE_LAYERS.flat());
    expect([...parts].filter((part) => !placed.has(part)).sort()).toEqual([]);
    expect([...placed].filter((part) => !parts.has(part)).sort()).toEqual([]);
  });

  it('no part imports a part of its own layer or above (types and lazy import() included)', () => {
    expect(layerViolations(graph, ENGINE_LAYERS)).toEqual([]);
  });

  it("docs/architecture.md lists the same layers, in the same order ('1. `protocol/` — 2. `events.ts` — …')", () => {
    const page = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8');
    const list = page.slice(page.indexOf("## The engine's layers")).split('\n\n')[2] ?? '';
    const documented = [...list.matchAll(/\d+\. ((?:`[^`]+`(?:,\s*)?)+)/g)].map(([, parts]) =>
      [...parts!.matchAll(/`([^`]+)`/g)].map(([, part]) => part!.replace(/\/$|\.ts$/, '')),
    );
    expect(documented).toEqual(ENGINE_LAYERS);
  });

  it('the check sees an upward edge and a sideways one', () => {
    const made = new Map([
      ['source/engine/util/a.ts', ['source/engine/session/paths.ts']],
      ['source/engine/model/b.ts', ['source/engine/eval/patch.ts', 'source/engine/tools/format.ts']],
      ['source/engine/errors.ts', ['source/engine/run/c.ts']],
    ]);
    expect(layerViolations(made, ENGINE_LAYERS)).toEqual([
      'util -> session (source/engine/util/a.ts -> source/engine/session/paths.ts)',
      'model -> eval (source/engine/model/b.ts -> source/engine/eval/patch.ts)',
      'errors -> run (source/engine/errors.ts -> source/engine/run/c.ts)',
    ]);
  });
});
