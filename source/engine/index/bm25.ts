/**
 * Okapi BM25 over token lists (k1 = 1.2, b = 0.75, the usual values), with an inverted index so a
 * query only visits the documents that share a word with it.
 */
export class Bm25 {
  /** Per token, its documents and frequencies as flat pairs: [document, frequency, document, frequency, …]. */
  private readonly postings = new Map<string, number[]>();
  private readonly lengths: number[];
  private readonly averageLength: number;

  constructor(
    documents: readonly string[][],
    private readonly k1 = 1.2,
    private readonly b = 0.75,
  ) {
    const counts = new Map<string, number>();
    documents.forEach((document, index) => {
      counts.clear();
      for (const token of document) counts.set(token, (counts.get(token) ?? 0) + 1);
      for (const [token, frequency] of counts) {
        const list = this.postings.get(token);
        if (list) list.push(index, frequency);
        else this.postings.set(token, [index, frequency]);
      }
    });
    this.lengths = documents.map((d) => d.length);
    this.averageLength = this.lengths.reduce((a, b) => a + b, 0) / Math.max(1, documents.length);
  }

  private idf(token: string): number {
    const n = (this.postings.get(token)?.length ?? 0) / 2;
    return Math.log(1 + (this.lengths.length - n + 0.5) / (n + 0.5));
  }

  private scores(query: readonly string[]): Map<number, number> {
    const scores = new Map<number, number>();
    for (const token of new Set(query)) {
      const idf = this.idf(token);
      const list = this.postings.get(token) ?? [];
      for (let i = 0; i < list.length; i += 2) {
        const document = list[i]!;
        const frequency = list[i + 1]!;
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
  top(
    query: readonly string[],
    n: number,
    keep: (document: number) => boolean = () => true,
  ): { document: number; score: number }[] {
    return [...this.scores(query)]
      .filter(([document, score]) => score > 0 && keep(document))
      .map(([document, score]) => ({ document, score }))
      .sort((x, y) => y.score - x.score || x.document - y.document)
      .slice(0, n);
  }
}
