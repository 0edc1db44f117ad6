// Bundles the CLI: bundled, it starts in a fraction of the unbundled tree's time. Code splitting
// keeps what a command does not use (the provider SDKs, the parser) out of its start-up: each
// command's module is imported lazily by main.ts, and lands in its own chunk.
// The stamp it writes lets `npm start` (scripts/start.mjs) skip the build when dist is current.
import { chmodSync, rmSync } from 'node:fs';
import { sourceStamp, writeStamp } from './build-stamp.mjs';

const root = process.cwd();
// Taken before building: a source edited during the build makes the next start build again.
const stamp = sourceStamp(root);
const { build } = await import('esbuild');
const outfile = 'dist/tenet.js';
rmSync('dist/chunks', { recursive: true, force: true });

// Ink loads its devtools (and react-devtools-core) only when DEV=true; bundled, that import would
// be a static one. It resolves to an empty module instead.
const noDevtools = {
  name: 'no-devtools',
  setup(builder) {
    builder.onResolve({ filter: /^react-devtools-core$/ }, () => ({ path: 'react-devtools-core', namespace: 'empty' }));
    builder.onLoad({ filter: /.*/, namespace: 'empty' }, () => ({
      contents: 'export default { connectToDevTools() {} };',
      loader: 'js',
    }));
  },
};
await build({
  entryPoints: { tenet: 'source/cli.tsx' },
  outdir: 'dist',
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  // React's production build: the development one checks every render and costs ~2× per frame.
  define: { 'process.env.NODE_ENV': '"production"' },
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
  plugins: [noDevtools],
  // The tokenizer's data (megabytes) is loaded from node_modules only when a server sends no usage
  // and tokens must be estimated. ssh2 (docker-modem's ssh:// transport) loads native
  // addons of its own: it stays in node_modules and is required from there.
  external: ['gpt-tokenizer', 'ssh2', 'cpu-features'],
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
// The exported session page's script (source/engine/session/page/, browser code): one script for
// a browser, which `tenet export --format html` inlines into the page (engine/session/export-html.ts).
await build({
  entryPoints: ['source/engine/session/page/player.ts'],
  outfile: 'dist/session-page.js',
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: 'es2022',
  logLevel: 'warning',
});
writeStamp(root, stamp);
