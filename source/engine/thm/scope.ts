import { readdirSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';

/** Names pytest collects by default: a cheap measure of a scope's size. */
const TEST_FILE = /^(test_.*|.*_test)\.py$/;

/** Options whose value is the next argument and names no part of the scope (`-k parser`, `--ignore tests/slow`). */
const TAKES_VALUE = new Set([
  '-k', '-m', '-p', '-c', '-o', '-W', '-r',
  '--ignore', '--ignore-glob', '--deselect', '--rootdir', '--confcutdir', '--basetemp',
  '--junitxml', '--junit-xml', '--override-ini', '--config-file', '--tb', '--maxfail', '--durations',
]);

/**
 * How many test files the `--tests` arguments name, to decide whether sharding pays: a file (or a
 * node id in it) counts once, a folder counts the test files under it. Arguments that are no path
 * in the workspace count nothing. `null` when no argument is a path: the scope is then the
 * repository's own configuration, and the caller counts the whole repository.
 */
export function scopeTestFiles(root: string, testArgs: readonly string[]): number | null {
  let files = 0;
  let paths = 0;
  for (let i = 0; i < testArgs.length; i++) {
    const arg = testArgs[i]!;
    if (arg.startsWith('-')) {
      if (TAKES_VALUE.has(arg)) i++;
      continue;
    }
    const path = arg.split('::')[0]!;
    const full = isAbsolute(path) ? path : join(root, path);
    let isDir: boolean;
    try {
      isDir = statSync(full).isDirectory();
    } catch {
      continue; // not a path: an option's value, or a test that does not exist
    }
    paths++;
    files += isDir ? testFilesUnder(full) : 1;
  }
  return paths ? files : null;
}

function testFilesUnder(dir: string): number {
  let count = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    // Dirents do not follow symlinks, so a link loop cannot trap the walk.
    if (entry.isDirectory()) {
      if (!entry.name.startsWith('.') && entry.name !== '__pycache__') count += testFilesUnder(join(dir, entry.name));
    } else if (TEST_FILE.test(entry.name)) {
      count++;
    }
  }
  return count;
}
