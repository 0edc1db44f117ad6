import { describe, expect, it } from 'vitest';
import { Bm25 } from '../../source/engine/index/bm25';
import { tokens } from '../../source/engine/index/tokens';

describe('tokens', () => {
  it('splits snake_case and CamelCase identifiers, lower-cases, drops stop words and short words', () => {
    expect(tokens('def parseHTTPResponse_v2(self, raw_bytes):')).toEqual([
      'parse',
      'http',
      'response',
      'v2',
      'raw',
      'bytes',
    ]);
    expect(tokens('XMLHttpRequest getURLPath')).toEqual(['xml', 'http', 'request', 'get', 'url', 'path']);
    expect(tokens('Return the area of a shape, or 0 for None.')).toEqual(['area', 'shape']);
  });
});

describe('Bm25', () => {
  const docs = [
    ['apply', 'discount', 'price', 'percent'],
    ['cart', 'total', 'price'],
    ['loyalty', 'points', 'amount', 'rate'],
    ['discount', 'discount', 'code'],
  ];
  const bm25 = new Bm25(docs);

  it('ranks documents sharing rare query words first', () => {
    expect(bm25.top(['discount', 'percent'], 4).map((r) => r.document)).toEqual([0, 3]);
    expect(bm25.top(['price'], 4).map((r) => r.document)).toEqual([1, 0]);
  });

  it('leaves out documents without a shared word, and those filtered out', () => {
    expect(bm25.top(['unknown'], 4)).toEqual([]);
    expect(bm25.top(['discount', 'percent'], 4, (d) => d !== 0).map((r) => r.document)).toEqual([3]);
  });

  it('scores by the usual formula', () => {
    // idf(percent) = ln(1 + (4 - 1 + 0.5) / (1 + 0.5)); doc 0 has 4 tokens, the average is 3.5.
    const idf = Math.log(1 + 3.5 / 1.5);
    const norm = 1.2 * (1 - 0.75 + (0.75 * 4) / 3.5);
    expect(bm25.score(['percent'], 0)).toBeCloseTo((idf * 2.2) / (1 + norm), 10);
  });
});
