import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** Every .ts/.tsx file under `dir`. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : /\.tsx?$/.test(entry.name)
        ? [join(dir, entry.name)]
        : [],
  );
}

/**
 * What each file imports: static imports and re-exports (types included: a cycle of types is a
 * cycle of meaning), dynamic `import()` and inline `import('…').Type`. Relative specifiers are
 * resolved to files (paths relative to `root`); packages are kept as written.
 */
export function importGraph(root: string, dir: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(dir)) {
    const text = readFileSync(file, 'utf8');
    const specs = [...text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*['"]([^'"]+)['"]/g)].map((m) => m[1]!);
    graph.set(
      relative(root, file),
      specs.map((spec) => (spec.startsWith('.') ? (resolveFile(resolve(dirname(file), spec), root) ?? spec) : spec)),
    );
  }
  return graph;
}

function resolveFile(base: string, root: string): string | undefined {
  const candidates = [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), base];
  const hit = candidates.find((path) => existsSync(path) && statSync(path).isFile());
  return hit ? relative(root, hit) : undefined;
}

/** The import cycles: each strongly connected group of files (Tarjan), as a sorted list. */
export function importCycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, counter);
    low.set(file, counter++);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file)!, index.get(next)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1 || graph.get(file)!.includes(file)) cycles.push(group.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles;
}
