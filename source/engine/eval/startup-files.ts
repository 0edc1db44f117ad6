import { lstatSync, readdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { Sandbox } from '../sandbox/sandbox';

/** Each entry of the folders Python acts on as it starts, by path, with what identifies its state (see fingerprintTree). */
export type StartupFingerprint = Map<string, string>;

const SITE_DIRS = 'import json, site; print(json.dumps(site.getsitepackages() + [site.getusersitepackages()]))';

/**
 * The folders whose top-level files every Python process of the evaluation acts on before a test
 * runs: the interpreter's site-packages and the user's (`.pth` files, `sitecustomize`,
 * `usercustomize`, an installed plugin's metadata), and PYTHONPATH's folders (a `sitecustomize`
 * there is imported too). Code that runs unconfined can write there; the evaluation's fresh copy
 * does not cover them.
 */
export async function startupFolders(sandbox: Sandbox, python: string): Promise<string[]> {
  const run = await sandbox.run([python, '-I', '-c', SITE_DIRS], { timeoutMs: 60_000 });
  if (run.exitCode !== 0 || run.timedOut)
    throw new Error(
      `${python} did not say where its site-packages are (${run.stderr.trim().split('\n').at(-1) || (run.timedOut ? 'timed out' : `exit ${run.exitCode}`)})`,
    );
  const site = JSON.parse(run.stdout) as string[];
  return [...new Set([...site, ...(sandbox.env.PYTHONPATH ?? '').split(delimiter).filter(Boolean)])];
}

/** The top-level entries of each folder, from their metadata alone (a FIFO never stalls it); a folder that is not there is recorded as absent. */
export function fingerprintStartup(folders: readonly string[]): StartupFingerprint {
  const found: StartupFingerprint = new Map();
  for (const folder of folders) {
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' && (error as NodeJS.ErrnoException).code !== 'ENOTDIR')
        throw error;
      found.set(folder, 'absent');
      continue;
    }
    for (const name of names) {
      // Bytecode Python writes there as it imports; never taken for a .pth or a sitecustomize.
      if (name === '__pycache__') continue;
      const info = lstatSync(join(folder, name), { bigint: true });
      found.set(
        join(folder, name),
        info.isDirectory()
          ? `${info.mode}:${info.ino}`
          : `${info.mode}:${info.size}:${info.ino}:${info.mtimeNs}:${info.ctimeNs}`,
      );
    }
  }
  return found;
}
