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
        if (/^(ink|react)(\/|$)/.test(spec) || /^ink-/.test(spec) || /(^|\/)ui(\/|$)/.test(spec)) offenders.push(`${relative(ROOT, file)} imports ${spec}`);
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
    const offenders = [...graph].flatMap(([file, imports]) => imports.filter(above).map((target) => `${file} imports ${target}`));
    expect(graph.size).toBeGreaterThan(100);
    expect(offenders).toEqual([]);
  });
});

describe('the event spine is a leaf', () => {
  it('engine/events.ts and engine/protocol/ import nothing but each other (and zod, which the events are defined in)', () => {
    const graph = importGraph(ROOT, join(ROOT, 'source', 'engine'));
    const spine = (file: string) => file === 'source/engine/events.ts' || file.startsWith('source/engine/protocol/');
    const offenders = [...graph].filter(([file]) => spine(file)).flatMap(([file, imports]) => imports.filter((target) => !spine(target) && target !== 'zod').map((target) => `${file} imports ${target}`));
    expect([...graph.keys()].filter(spine).length).toBeGreaterThan(1);
    expect(offenders).toEqual([]);
  });
});
