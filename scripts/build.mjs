// Bundles the CLI into one ESM file: a single file loads in ~0.3 s where the unbundled tree takes twice that.
import { build } from 'esbuild';
import { chmodSync } from 'node:fs';

const outfile = 'dist/tenet.js';
await build({
  entryPoints: ['source/cli.tsx'],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
  // The entry's shebang is kept by esbuild. Bundled CommonJS dependencies still call require(); give the ESM bundle one.
  banner: {
    js: [
      "import { createRequire as __tenetCreateRequire } from 'node:module';",
      'const require = __tenetCreateRequire(import.meta.url);',
    ].join('\n'),
  },
  // Optional peer of ink that is only loaded when DEV=true; the tokenizer's data is only for bench/.
  external: ['react-devtools-core', 'gpt-tokenizer'],
});
chmodSync(outfile, 0o755);

// Worker threads that parse the repository index run this file (see source/engine/index/parse-pool.ts).
await build({
  entryPoints: ['source/engine/index/worker.ts'],
  outfile: 'dist/index-worker.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
  banner: {
    js: "import { createRequire as __tenetCreateRequire } from 'node:module';\nconst require = __tenetCreateRequire(import.meta.url);",
  },
});
