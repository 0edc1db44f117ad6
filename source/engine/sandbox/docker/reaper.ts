import { spawnSync } from 'node:child_process';
import { tlsFiles, type DockerEndpoint } from './connect';

/**
 * Removes a container synchronously, for exit hooks (Ctrl-C, SIGTERM, an uncaught error), which
 * cannot wait for a promise: a short Node process makes the API call and tenet waits for it.
 * An ssh endpoint cannot be reached this way; `tenet gc` removes what is left there.
 */
const SCRIPT = `
const input = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const e = input.endpoint;
const mod = require(e.protocol === 'https' ? 'https' : 'http');
const req = mod.request({
  method: 'DELETE',
  path: '/containers/' + input.id + '?force=1&v=1',
  ...(e.socketPath ? { socketPath: e.socketPath } : { host: e.host, port: e.port }),
  ...(input.tls || {}),
  timeout: 8000,
}, (res) => { res.resume(); res.on('end', () => process.exit(0)); });
req.on('error', () => process.exit(1));
req.on('timeout', () => { req.destroy(); process.exit(1); });
req.end();
`;

export function removeContainerNow(endpoint: DockerEndpoint, id: string): void {
  if (endpoint.protocol === 'ssh') return;
  const tls = endpoint.protocol === 'https' ? Object.fromEntries(Object.entries(tlsFiles()).map(([k, v]) => [k, v?.toString()])) : undefined;
  spawnSync(process.execPath, ['-e', SCRIPT], { input: JSON.stringify({ endpoint, id, tls }), timeout: 10_000, stdio: ['pipe', 'ignore', 'ignore'] });
}
