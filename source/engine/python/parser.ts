import { createRequire } from 'node:module';
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
    await Parser.init({ locateFile: () => runtimeWasm });
    const grammar = await Language.load(require.resolve('tree-sitter-python/tree-sitter-python.wasm'));
    const parser = new Parser();
    parser.setLanguage(grammar);
    return parser;
  })();
  return loading;
}

export async function parsePython(text: string): Promise<Tree> {
  const parser = await pythonParser();
  const tree = parser.parse(text);
  if (!tree) throw new Error('tree-sitter returned no tree');
  return tree;
}
