import { spawnSync } from 'node:child_process';
import { tlsFiles, type DockerEndpoint } from '../sandbox/docker/connect';

/** DELETE requests to the engine, one after another, by a short Node process (`input`: endpoint, paths, tls). */
const SCRIPT = `
const input = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const e = input.endpoint;
const mod = require(e.protocol === 'https' ? 'https' : 'http');
const once = (path) => new Promise((done) => {
  const req = mod.request({ method: 'DELETE', path, ...(e.socketPath ? { socketPath: e.socketPath } : { host: e.host, port: e.port }), ...(input.tls || {}), timeout: 8000 },
    (res) => { res.resume(); res.on('end', () => done(res.statusCode)); });
  req.on('error', () => done(0));
  req.on('timeout', () => { req.destroy(); done(0); });
  req.end();
});
const deadline = Date.now() + input.waitMs;
// A secret or image is in use (409, or 500 for a secret) until the removed services' containers are gone: again, a moment later.
const one = async (path) => { for (;;) { const status = await once(path); if (status < 300 || status === 404 || Date.now() > deadline) return; await new Promise((r) => setTimeout(r, 300)); } };
(async () => { for (const path of input.paths) await one(path); })();
`;

/**
 * Removes swarm objects synchronously (API paths such as `/services/ID`), in order, for the exit
 * hooks of Ctrl-C and SIGTERM, which cannot wait for a promise; what is still in use is tried
 * again for a few seconds. An ssh endpoint cannot be reached this way:
 * the next run with the same folder, or `tenet gc`, removes what is left there.
 */
export function removeNow(endpoint: DockerEndpoint, paths: string[]): void {
  if (endpoint.protocol === 'ssh' || !paths.length) return;
  const tls =
    endpoint.protocol === 'https'
      ? Object.fromEntries(Object.entries(tlsFiles()).map(([k, v]) => [k, v?.toString()]))
      : undefined;
  spawnSync(process.execPath, ['-e', SCRIPT], {
    input: JSON.stringify({ endpoint, paths, tls, waitMs: 15_000 }),
    timeout: 20_000,
    stdio: ['pipe', 'ignore', 'ignore'],
  });
}
