import { posix } from 'node:path';
import type { Sandbox } from '../sandbox/sandbox';
import { importRoots } from './import-roots';

/**
 * Environment for every Python process tenet starts in a workspace: tenet's helpers and the
 * workspace's import roots first on PYTHONPATH, then whatever PYTHONPATH tenet itself was started
 * with, so the user's environment still reaches pytest.
 */
export function pythonEnv(sandbox: Sandbox, hostWorkspaceRoot: string, targetRel: string): Record<string, string> {
  const roots = importRoots(hostWorkspaceRoot, targetRel).map((rel) =>
    rel ? posix.join(sandbox.workdir, rel) : sandbox.workdir,
  );
  const inherited = sandbox.env.PYTHONPATH;
  const path = [sandbox.helpersDir, ...roots, ...(inherited ? [inherited] : [])].join(':');
  return { PYTHONPATH: path, PYTHONIOENCODING: 'utf-8' };
}
