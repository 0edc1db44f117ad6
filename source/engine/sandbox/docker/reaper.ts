import { spawn, spawnSync } from 'node:child_process';
import { tlsFiles, type DockerEndpoint } from './connect';

/** The API call that removes a container, as a script for a short Node process (`input`: endpoint, id, tls). */
const REMOVE = `
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
const SCRIPT = `const input = JSON.parse(require('fs').readFileSync(0, 'utf8'));${REMOVE}`;

/**
 * The watchdog: told the container when it starts, it waits on a pipe from tenet that tenet never
 * writes to again; the pipe closes when tenet ends, however it ends (SIGKILL included), and the
 * watchdog then removes the container. In a session of its own, so a signal to tenet's process
 * group does not take it along.
 */
const WATCHDOG = `
let text = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => { text += d; });
process.stdin.on('end', () => { const input = JSON.parse(text.split('\\n')[0]); ${REMOVE.replace(/\n/g, ' ')} });
`;

/**
 * Removes a container synchronously, for exit hooks (Ctrl-C, SIGTERM, an uncaught error), which
 * cannot wait for a promise: a short Node process makes the API call and tenet waits for it.
 * An ssh endpoint cannot be reached this way; `tenet gc` removes what is left there.
 */
export function removeContainerNow(endpoint: DockerEndpoint, id: string): void {
  if (endpoint.protocol === 'ssh') return;
  const tls =
    endpoint.protocol === 'https'
      ? Object.fromEntries(Object.entries(tlsFiles()).map(([k, v]) => [k, v?.toString()]))
      : undefined;
  spawnSync(process.execPath, ['-e', SCRIPT], {
    input: JSON.stringify({ endpoint, id, tls }),
    timeout: 10_000,
    stdio: ['pipe', 'ignore', 'ignore'],
  });
}

/**
 * Removes the container when this tenet ends without removing it (killed outright): see WATCHDOG.
 * Returns what stops watching (after tenet removed the container itself). An ssh endpoint cannot
 * be reached this way; `tenet gc` removes what is left there.
 */
export function watchContainer(endpoint: DockerEndpoint, id: string): () => void {
  if (endpoint.protocol === 'ssh') return () => undefined;
  const tls =
    endpoint.protocol === 'https'
      ? Object.fromEntries(Object.entries(tlsFiles()).map(([k, v]) => [k, v?.toString()]))
      : undefined;
  const child = spawn(process.execPath, ['-e', WATCHDOG], { stdio: ['pipe', 'ignore', 'ignore'], detached: true });
  child.on('error', () => undefined);
  child.stdin!.on('error', () => undefined);
  // The request goes now, with a newline; the end of the pipe is the signal to act.
  child.stdin!.write(`${JSON.stringify({ endpoint, id, tls })}\n`);
  child.unref();
  (child.stdin as unknown as { unref?: () => void }).unref?.();
  return () => {
    child.stdin!.end();
  };
}
