/**
 * mulberry32: a small 32-bit generator. Math.random cannot be seeded, and the same seed must give
 * the same tasks on every machine and Node version.
 */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Fisher–Yates with the given generator; the input is left alone. */
function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * The order in which candidates are tried: the files in a seeded order, each file's functions in a
 * seeded order, then one function from each file in turn. A plain shuffle would let a few large
 * modules supply most tasks; taking turns spreads them over the repository's modules, as a
 * benchmark wants. `items` must come in a canonical order (file, line) for the result to depend on
 * the seed alone.
 */
export function spreadOrder<T extends { file: string }>(items: readonly T[], seed: number): T[] {
  const random = seededRandom(seed);
  const byFile = new Map<string, T[]>();
  for (const item of items) {
    const list = byFile.get(item.file);
    if (list) list.push(item);
    else byFile.set(item.file, [item]);
  }
  const queues = shuffled([...byFile.keys()], random).map((file) => shuffled(byFile.get(file)!, random));
  const out: T[] = [];
  for (let round = 0; out.length < items.length; round++) {
    for (const queue of queues) if (round < queue.length) out.push(queue[round]!);
  }
  return out;
}
