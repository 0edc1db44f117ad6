/**
 * Okapi BM25 over token lists (k1 = 1.2, b = 0.75, the usual values), with an inverted index so a
 * query only visits the documents that share a word with it.
 */
export class Bm25 {
  private readonly postings = new Map<string, { document: number; frequency: number }[]>();
  private readonly lengths: number[];
  private readonly averageLength: number;

  constructor(
    documents: readonly string[][],
    private readonly k1 = 1.2,
    private readonly b = 0.75,
  ) {
    documents.forEach((document, index) => {
      const counts = new Map<string, number>();
      for (const token of document) counts.set(token, (counts.get(token) ?? 0) + 1);
      for (const [token, frequency] of counts) {
        const list = this.postings.get(token);
        if (list) list.push({ document: index, frequency });
        else this.postings.set(token, [{ document: index, frequency }]);
      }
    });
    this.lengths = documents.map((d) => d.length);
    this.averageLength = this.lengths.reduce((a, b) => a + b, 0) / Math.max(1, documents.length);
  }

  private idf(token: string): number {
    const n = this.postings.get(token)?.length ?? 0;
    return Math.log(1 + (this.lengths.length - n + 0.5) / (n + 0.5));
  }

  private scores(query: readonly string[]): Map<number, number> {
    const scores = new Map<number, number>();
    for (const token of new Set(query)) {
      const idf = this.idf(token);
      for (const { document, frequency } of this.postings.get(token) ?? []) {
        const norm = this.k1 * (1 - this.b + (this.b * this.lengths[document]!) / (this.averageLength || 1));
        scores.set(document, (scores.get(document) ?? 0) + idf * ((frequency * (this.k1 + 1)) / (frequency + norm)));
      }
    }
    return scores;
  }

  score(query: readonly string[], document: number): number {
    return this.scores(query).get(document) ?? 0;
  }

  /** The best `n` documents with a positive score, best first (ties: lower index). */
  top(query: readonly string[], n: number, keep: (document: number) => boolean = () => true): { document: number; score: number }[] {
    return [...this.scores(query)]
      .filter(([document, score]) => score > 0 && keep(document))
      .map(([document, score]) => ({ document, score }))
      .sort((x, y) => y.score - x.score || x.document - y.document)
      .slice(0, n);
  }
}
