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
 *
 * Containing the query's last part counts as one edit, so `perimeter` finds `Shape.perimeter` and
 * `total` finds `subtotal`; but among names that close, fewer real edits come first: a one-letter
 * near miss (`_validate_bound` → `_validate_bounds`) before names that merely contain a shorter one
 * (`Bool.validate`), and then the nearer whole name, so `Int.validat` gives `Int.validate` before the
 * other classes' `validate`. Only then the alphabet.
 */
export function closestNames(query: string, candidates: readonly string[], limit = 5): string[] {
  const q = query.toLowerCase();
  const qLast = lastPart(query);
  const scored = candidates.map((candidate) => {
    const cLast = lastPart(candidate);
    const whole = editDistance(q, candidate.toLowerCase());
    const edits = Math.min(whole, editDistance(qLast, cLast));
    const contains = cLast !== qLast && (cLast.includes(qLast) || qLast.includes(cLast));
    return { candidate, score: contains ? Math.min(edits, 1) : edits, edits, whole };
  });
  scored.sort(
    (x, y) =>
      x.score - y.score ||
      x.edits - y.edits ||
      x.whole - y.whole ||
      (x.candidate < y.candidate ? -1 : x.candidate > y.candidate ? 1 : 0),
  );
  const close = scored.filter((s) => s.score <= Math.max(2, Math.floor(qLast.length * 0.4)));
  return (close.length ? close : scored.slice(0, 3)).slice(0, limit).map((s) => s.candidate);
}
