/** Edit distance (insert, delete, substitute, swap of neighbours), for "did you mean" lists. */
export function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, before[j - 2]! + 1);
      current.push(best);
    }
    before = previous;
    previous = current;
  }
  return previous[b.length]!;
}

/** The part a person recognises a name by: `Class.method` → method, `pkg/mod.py` → mod. */
function lastPart(name: string): string {
  return name.replace(/\.py$/, '').split(/[./]/).pop()!.toLowerCase();
}

/**
 * The candidates closest to `query`, best first: near spellings of the whole name or of its last
 * part, and names whose last part contains the query's. Far-off names are left out unless nothing
 * is close, so the list stays a useful "did you mean".
 */
export function closestNames(query: string, candidates: readonly string[], limit = 5): string[] {
  const q = query.toLowerCase();
  const qLast = lastPart(query);
  const scored = candidates.map((candidate) => {
    const cLast = lastPart(candidate);
    let score = Math.min(editDistance(q, candidate.toLowerCase()), editDistance(qLast, cLast));
    if (cLast !== qLast && (cLast.includes(qLast) || qLast.includes(cLast))) score = Math.min(score, 1);
    return { candidate, score };
  });
  scored.sort((x, y) => x.score - y.score || (x.candidate < y.candidate ? -1 : x.candidate > y.candidate ? 1 : 0));
  const close = scored.filter((s) => s.score <= Math.max(2, Math.floor(qLast.length * 0.4)));
  return (close.length ? close : scored.slice(0, 3)).slice(0, limit).map((s) => s.candidate);
}
