import { z } from 'zod';
import { Bm25 } from '../index/bm25';
import { isTestPath, type Located, type RepoIndex } from '../index/repo-index';
import { tokens } from '../index/tokens';
import type { FileIndex, FunctionEntry } from '../index/types';
import { functionHit } from './code-view';
import { plural, renderHits } from './format';
import { defineTool } from './tool';

interface Corpus {
  version: FileIndex[];
  methods: Located<FunctionEntry>[];
  bm25: Bm25;
}

const corpora = new WeakMap<RepoIndex, Corpus>();

/** What a method is about: its name (twice, it says the most), class, parameters and docstring. */
function document({ entry }: Located<FunctionEntry>): string[] {
  const name = tokens(entry.name);
  return [...name, ...name, ...tokens(entry.className ?? ''), ...tokens(entry.params), ...tokens(entry.docstring)];
}

function corpus(index: RepoIndex): Corpus {
  const files = index.files;
  const cached = corpora.get(index);
  if (cached && cached.version.length === files.length && cached.version.every((f, i) => f === files[i])) return cached;
  const methods = files.filter((f) => !isTestPath(f.path)).flatMap((file) => file.functions.map((entry) => ({ file, entry })));
  const built = { version: files, methods, bm25: new Bm25(methods.map(document)) };
  corpora.set(index, built);
  return built;
}

export const searchSimilarMethod = defineTool({
  name: 'search_similar_method',
  description:
    "Find the n methods of the repository most similar to the target function's signature and docstring (BM25 over identifier words), with their code. Test files and the target itself are left out.",
  schema: z.object({ n: z.coerce.number().int().min(1).max(20).default(3).describe('How many methods to return') }),
  run({ n }, { index, target }) {
    const { methods, bm25 } = corpus(index);
    const query = tokens(target.prompt);
    const isTarget = (m: Located<FunctionEntry>) => m.file.path === target.file && m.entry.qualname === target.qualname;
    const best = bm25.top(query, n, (d) => !isTarget(methods[d]!));
    if (!best.length) return 'Found no method similar to the target.';
    return renderHits(
      `Found ${plural(best.length, 'method')} similar to ${target.id}, most similar first:`,
      best.map(({ document: d }) => functionHit(index, methods[d]!)),
      Infinity,
    );
  },
});
