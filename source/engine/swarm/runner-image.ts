import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { installRoot } from '../assets';
import { TenetError } from '../errors';
import { connectDocker } from '../sandbox/docker/connect';
import { DEFAULT_IMAGE } from '../sandbox/docker/names';
import { buildFromContext, type ContextItem } from './build-context';
import { TENET_VERSION } from '../version';

/** The image `--on swarm` runs tasks in unless `--runner-image` names another. */
export const RUNNER_IMAGE = `tenet-runner:${TENET_VERSION}`;

/** What of node_modules the bundle still loads at run time (see scripts/build.mjs): the parser's wasm, and the tokenizer's data. */
const RUNTIME_MODULES = ['web-tree-sitter', 'tree-sitter-python', 'gpt-tokenizer'];

/**
 * `tenet image build --runner`: the sandbox image (Python, pytest) plus this machine's Node binary
 * and this tenet (its bundle, prompts, Python helpers and the few modules the bundle loads from
 * disk). Made with no network: the FROM image is the one `tenet image build` made offline, and the
 * rest is copied from here. The Node binary must suit the image's Debian (glibc) and CPU — the
 * case on a Debian or Ubuntu machine of the swarm's architecture.
 */
export async function buildRunnerImage(options: {
  tag?: string;
  base?: string;
  host?: string;
  onLine?: (line: string) => void;
}): Promise<{ tag: string; sizeBytes: number; seconds: number }> {
  const started = Date.now();
  const tag = options.tag ?? RUNNER_IMAGE;
  const base = options.base ?? DEFAULT_IMAGE;
  const root = installRoot();
  if (!existsSync(join(root, 'dist', 'tenet.js')))
    throw new TenetError(
      `${root} has no dist/tenet.js to put in the image.`,
      'build tenet first: `node scripts/build.mjs`',
    );
  const { docker } = await connectDocker(options.host);
  try {
    await docker.getImage(base).inspect();
  } catch {
    throw new TenetError(
      `The runner image is built on ${base}, which this engine does not have.`,
      `build it first: \`tenet image build${base === DEFAULT_IMAGE ? '' : ` --tag ${base}`}\``,
    );
  }
  const modules: ContextItem[] = RUNTIME_MODULES.map((name) => ({
    name: `tenet/node_modules/${name}`,
    from: join(root, 'node_modules', name),
  })).filter((m) => existsSync(m.from));
  const items: ContextItem[] = [
    {
      name: 'Dockerfile',
      text: [
        `FROM ${base}`,
        'COPY node /usr/local/bin/node',
        'COPY tenet /opt/tenet',
        'ENV HOME=/tmp',
        'WORKDIR /tmp',
        'ENTRYPOINT ["/usr/local/bin/node", "/opt/tenet/dist/tenet.js"]',
        '',
      ].join('\n'),
    },
    { name: 'node', from: process.execPath },
    { name: 'tenet/package.json', from: join(root, 'package.json') },
    { name: 'tenet/dist', from: join(root, 'dist') },
    { name: 'tenet/prompts', from: join(root, 'prompts') },
    { name: 'tenet/source/python', from: join(root, 'source', 'python') },
    ...modules,
  ];
  await buildFromContext(docker, tag, items, { 'dev.tenet.runner': TENET_VERSION }, options.onLine);
  const info = await docker.getImage(tag).inspect();
  return { tag, sizeBytes: info.Size, seconds: (Date.now() - started) / 1000 };
}
