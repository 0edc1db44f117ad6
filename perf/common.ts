import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** `--name value` from a perf script's arguments. */
export function optionReader(argv: readonly string[]): (name: string) => string | undefined {
  return (name) => {
    const at = argv.indexOf(name);
    return at === -1 ? undefined : argv[at + 1];
  };
}

export interface CopyOptions {
  /** Folder to copy into (default: a new temporary folder, removed by `cleanup`). */
  into?: string;
  /** Keep file times, so the installed package's bytecode caches stay valid in the copy. */
  preserveTimestamps?: boolean;
  /** Leave `__pycache__` folders out. */
  skipBytecode?: boolean;
}

/**
 * A real repository to measure on: a package that ships with its tests in python3's
 * site-packages (networkx, sympy), copied so tenet can work on it.
 */
export function copyInstalledPackage(name: string, options: CopyOptions = {}): { repo: string; cleanup: () => void } {
  const source = execFileSync('python3', ['-c', `import ${name}; print(${name}.__path__[0])`], {
    encoding: 'utf8',
  }).trim();
  const repo = options.into ?? mkdtempSync(join(tmpdir(), 'tenet-perf-'));
  cpSync(source, join(repo, name), {
    recursive: true,
    ...(options.preserveTimestamps ? { preserveTimestamps: true } : {}),
    ...(options.skipBytecode ? { filter: (path: string) => !path.includes('__pycache__') } : {}),
  });
  return { repo, cleanup: options.into ? () => undefined : () => rmSync(repo, { recursive: true, force: true }) };
}
