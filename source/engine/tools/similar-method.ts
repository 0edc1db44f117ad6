import * as z from 'zod';
import { Bm25 } from '../index/bm25';
import { isTestPath, type Located, type RepoIndex } from '../index/repo-index';
import { tokens } from '../index/tokens';
import type { FileIndex, FunctionEntry } from '../index/types';
import { functionHit } from './code-view';
import { renderHits } from './format';
import { plural } from '../util/plural';
import { defineTool } from './tool';

interface Corpus {
  version: FileIndex[];
  methods: Located<FunctionEntry>[];
  bm25: Bm25;
}

const corpora = new WeakMap<RepoIndex, Corpus>();
/** Each file's documents, kept across refreshes: only changed files are tokenized again. */
const documentsOf = new WeakMap<FileIndex, string[][]>();

/** Tokens of a name, class or parameter list: these repeat across a repository, so each is tokenized once. */
function memoTokens(memo: Map<string, string[]>, text: string): string[] {
  let list = memo.get(text);
  if (!list) memo.set(text, (list = tokens(text)));
  return list;
}

/** What a method is about: its name (twice, it says the most), class, parameters and docstring. */
function document(entry: FunctionEntry, memo: Map<string, string[]>): string[] {
  const out: string[] = [];
  const name = memoTokens(memo, entry.name);
  for (const token of name) out.push(token);
  for (const token of name) out.push(token);
  for (const token of memoTokens(memo, entry.className ?? '')) out.push(token);
  for (const token of memoTokens(memo, entry.params)) out.push(token);
  for (const token of tokens(entry.docstring)) out.push(token);
  return out;
}

/** The BM25 corpus of the index as it is now: built on first need, rebuilt after a file changed. */
export function similarityCorpus(index: RepoIndex): Corpus {
  const files = index.files;
  const cached = corpora.get(index);
  if (cached?.version === files) return cached;
  const memo = new Map<string, string[]>();
  const methods: Located<FunctionEntry>[] = [];
  const documents: string[][] = [];
  for (const file of files) {
    if (isTestPath(file.path)) continue;
    let docs = documentsOf.get(file);
    if (!docs) documentsOf.set(file, (docs = file.functions.map((entry) => document(entry, memo))));
    for (const entry of file.functions) methods.push({ file, entry });
    for (const doc of docs) documents.push(doc);
  }
  const built = { version: files, methods, bm25: new Bm25(documents) };
  corpora.set(index, built);
  return built;
}

export const searchSimilarMethod = defineTool({
  name: 'search_similar_method',
  description:
    "Find the n methods of the repository most similar to the target function's signature and docstring (BM25 over identifier words), with their code. Test files and the target itself are left out.",
  schema: z.object({ n: z.coerce.number().int().min(1).max(20).default(3).describe('How many methods to return') }),
  run({ n }, { index, target }) {
    const { methods, bm25 } = similarityCorpus(index);
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
