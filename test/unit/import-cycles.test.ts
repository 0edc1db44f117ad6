import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/fixtures';
import { importCycles, importGraph } from '../helpers/import-graph';

describe('the import graph of source/', () => {
  const graph = importGraph(ROOT, join(ROOT, 'source'));

  it('has no cycle, types and lazy imports included', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(importCycles(graph)).toEqual([]);
  });

  it('finds a cycle when there is one', () => {
    const looped = new Map([
      ...graph,
      ['source/engine/events.ts', [...graph.get('source/engine/events.ts')!, 'source/ui/view-state.ts']],
    ]);
    expect(importCycles(looped)).toContainEqual(
      expect.arrayContaining(['source/engine/events.ts', 'source/ui/view-state.ts']),
    );
  });
});
