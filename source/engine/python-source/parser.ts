import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import { Language, Parser, type Tree } from 'web-tree-sitter';

const require = createRequire(import.meta.url);
let loading: Promise<Parser> | undefined;

/**
 * One tree-sitter parser for Python per thread, loaded on first use. The grammar is the wasm build
 * that ships in tree-sitter-python, so nothing is compiled on install.
 */
export function pythonParser(): Promise<Parser> {
  loading ??= (async () => {
    const runtimeWasm = require.resolve('web-tree-sitter/web-tree-sitter.wasm');
    // The wasm's own error print would be a stray `Aborted()` line: an abort is thrown as well, and
    // whoever parsed says what failed (the index leaves the file out with a warning naming it).
    await Parser.init({ locateFile: () => runtimeWasm, printErr: () => {} });
    const grammar = await Language.load(require.resolve('tree-sitter-python/tree-sitter-python.wasm'));
    const parser = new Parser();
    parser.setLanguage(grammar);
    return parser;
  })();
  return loading;
}

/**
 * For a process that parses only a few files (`tenet thm`: the target's, a few times). V8 compiles
 * the grammar with its baseline compiler, then recompiles the functions a parse keeps busy (the
 * lexer's) with its optimizing one on another thread: ~0.25 CPU-s here, on the core the tests run
 * on, that pays off only after about a megabyte of source (a parse with the baseline code alone
 * takes ~2.3x as long). Call before the first parse. A run calls it for a small repository
 * (parseWithBaselineCodeOnlyIfSmall); on a larger one the index and the agent's tools keep both.
 */
export function parseWithBaselineCodeOnly(): void {
  if (!loading) setFlagsFromString('--liftoff-only');
}

export async function parsePython(text: string): Promise<Tree> {
  const parser = await pythonParser();
  const tree = parser.parse(text);
  if (!tree) throw new Error('tree-sitter returned no tree');
  return tree;
}
