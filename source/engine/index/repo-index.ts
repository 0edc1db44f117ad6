import { statSync } from 'node:fs';
import { join } from 'node:path';
import { decodeSource } from '../python-source/source-text';
import { listPythonFiles } from '../workspace/walk';
import { mayCall, unpackCalls } from './calls';
import { hashBytes, indexSource, parseFailure, tooLargeToIndex, type SkippedFile } from './parse-file';
import { PARSE_INLINE_BYTES, ParsePool, type Parsed } from './parse-pool';
import type { CallEntry, ClassEntry, FileIndex, FunctionEntry } from './types';
import { readInsideSync } from '../workspace/inside';

export interface Located<T> {
  file: FileIndex;
  entry: T;
}

/** What says a file may have changed without reading it: its modification time and size. */
export interface FileSignature {
  mtimeMs: number;
  size: number;
}

/** What a refresh found changed in the workspace (paths relative to its root). */
export interface IndexChanges {
  added: string[];
  changed: string[];
  removed: string[];
}

const TEST_DIR = /(^|\/)(tests?|testing)\//;
const TEST_FILE = /(^|\/)(test_[^/]*|[^/]*_test|conftest)\.py$/;

/** Where pytest projects keep tests: test folders, test_*.py, *_test.py, conftest.py. */
export function isTestPath(path: string): boolean {
  return TEST_DIR.test(path) || TEST_FILE.test(path);
}

function byName<T extends { name: string }>(
  files: readonly FileIndex[],
  entries: (file: FileIndex) => readonly T[],
): Map<string, Located<T>[]> {
  const map = new Map<string, Located<T>[]>();
  for (const file of files) {
    for (const entry of entries(file)) {
      const list = map.get(entry.name);
      if (list) list.push({ file, entry });
      else map.set(entry.name, [{ file, entry }]);
    }
  }
  return map;
}

/**
 * The repository index: every module's classes, functions, imports and call sites, with lookups
 * by name built on first use. Code is read from the workspace when a tool shows it, and kept.
 *
 * Anything that can change files (a shell command, a test run) marks the index stale; the next
 * tool call refreshes it first: one walk and a stat per file (~20 ms on sympy), then only files
 * whose modification time or size moved are read, and only those whose content moved re-parsed.
 */
export class RepoIndex {
  private readonly byPath = new Map<string, FileIndex>();
  private readonly signatures: Map<string, FileSignature>;
  private sorted?: FileIndex[];
  private classMap?: Map<string, Located<ClassEntry>[]>;
  private functionMap?: Map<string, Located<FunctionEntry>[]>;
  private readonly texts = new Map<string, { text: string; lines?: string[] }>();
  private stale = false;

  /** Files left out (too large, or the parser failed on them): looked at again only when they change. */
  private readonly leftOut = new Set<string>();

  constructor(
    readonly root: string,
    files: Iterable<FileIndex>,
    signatures: Map<string, FileSignature> = new Map(),
    skipped: readonly SkippedFile[] = [],
  ) {
    for (const file of files) this.byPath.set(file.path, file);
    for (const { path } of skipped) this.leftOut.add(path);
    this.signatures = signatures;
  }

  get files(): FileIndex[] {
    this.sorted ??= [...this.byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return this.sorted;
  }

  file(path: string): FileIndex | undefined {
    return this.byPath.get(path);
  }

  classesNamed(name: string): Located<ClassEntry>[] {
    this.classMap ??= byName(this.files, (file) => file.classes);
    return this.classMap.get(name) ?? [];
  }

  functionsNamed(name: string): Located<FunctionEntry>[] {
    this.functionMap ??= byName(this.files, (file) => file.functions);
    return this.functionMap.get(name) ?? [];
  }

  /** The file's text in the workspace now. */
  text(path: string): string {
    return this.read(path).text;
  }

  /** Call sites of a file, from the index; only those named one of `names` when given. */
  callsIn(path: string, names?: Iterable<string>): CallEntry[] {
    const file = this.byPath.get(path);
    return file ? unpackCalls(file.calls, file.functions, names) : [];
  }

  /** Files with a call by one of these names (from the index's call sites; no file is read). */
  filesCalling(...names: string[]): FileIndex[] {
    return this.files.filter((file) => names.some((name) => mayCall(file.calls, name)));
  }

  allFunctions(): Located<FunctionEntry>[] {
    return this.files.flatMap((file) => file.functions.map((entry) => ({ file, entry })));
  }

  private read(path: string): { text: string; lines?: string[] } {
    let entry = this.texts.get(path);
    if (!entry) {
      entry = { text: decodeSource(readInsideSync(this.root, path)).text };
      this.texts.set(path, entry);
    }
    return entry;
  }

  /** The file's lines as it is in the workspace now (1-based access: lines(path)[n - 1]). */
  lines(path: string): string[] {
    const entry = this.read(path);
    entry.lines ??= (entry.text.endsWith('\n') ? entry.text.slice(0, -1) : entry.text).split('\n');
    return entry.lines;
  }

  /** Files may have changed in the workspace (a command ran): the next refreshIfStale() looks. */
  markStale(): void {
    this.stale = true;
  }

  get isStale(): boolean {
    return this.stale;
  }

  async refreshIfStale(): Promise<IndexChanges | undefined> {
    return this.stale ? this.refresh() : undefined;
  }

  /** Brings the index in line with the workspace: new and changed files re-indexed, deleted ones dropped. */
  async refresh(): Promise<IndexChanges> {
    this.stale = false;
    const changes: IndexChanges = { added: [], changed: [], removed: [] };
    const toParse: { path: string; bytes: Buffer; hash: string }[] = [];
    const present = new Set<string>();
    for (const path of listPythonFiles(this.root)) {
      const absolute = join(this.root, path);
      const info = statSync(absolute, { throwIfNoEntry: false });
      if (!info) continue; // gone since the walk
      present.add(path);
      const known = this.signatures.get(path);
      if (
        known &&
        known.mtimeMs === info.mtimeMs &&
        known.size === info.size &&
        (this.byPath.has(path) || this.leftOut.has(path))
      )
        continue;
      this.leftOut.delete(path);
      if (tooLargeToIndex(path, info.size)) {
        this.leftOut.add(path);
        this.signatures.set(path, { mtimeMs: info.mtimeMs, size: info.size });
        this.texts.delete(path);
        if (this.byPath.delete(path)) changes.removed.push(path);
        continue;
      }
      let bytes: Buffer;
      try {
        bytes = readInsideSync(this.root, path);
      } catch {
        present.delete(path); // unreadable, or swapped for a link out of the workspace: as good as gone
        continue;
      }
      this.signatures.set(path, { mtimeMs: info.mtimeMs, size: info.size });
      this.texts.delete(path);
      const hash = hashBytes(bytes);
      if (this.byPath.get(path)?.hash === hash) continue; // touched, not changed
      (this.byPath.has(path) ? changes.changed : changes.added).push(path);
      toParse.push({ path, bytes, hash });
    }
    for (const path of [...this.byPath.keys(), ...this.leftOut]) {
      if (present.has(path)) continue;
      if (!this.leftOut.delete(path)) changes.removed.push(path);
      this.byPath.delete(path);
      this.texts.delete(path);
      this.signatures.delete(path);
    }
    const parsed =
      toParse.reduce((sum, file) => sum + file.bytes.length, 0) > PARSE_INLINE_BYTES
        ? await parseOnWorkers(
            this.root,
            toParse.map((f) => f.path),
          )
        : await parseHere(toParse);
    for (const entry of parsed.entries) this.byPath.set(entry.path, entry);
    for (const { path } of parsed.skipped) {
      this.leftOut.add(path);
      this.byPath.delete(path);
    }
    if (toParse.length || changes.removed.length) this.sorted = this.classMap = this.functionMap = undefined;
    return changes;
  }

  /** Re-reads and re-indexes one file after tenet changed it in the workspace (a submitted implementation). */
  async update(path: string): Promise<FileIndex> {
    const absolute = join(this.root, path);
    const info = statSync(absolute);
    const entry = await indexSource(path, readInsideSync(this.root, path));
    this.byPath.set(path, entry);
    this.signatures.set(path, { mtimeMs: info.mtimeMs, size: info.size });
    this.texts.delete(path);
    this.sorted = this.classMap = this.functionMap = undefined;
    return entry;
  }
}

async function parseOnWorkers(root: string, paths: string[]): Promise<Omit<Parsed, 'chunks'>> {
  const pool = new ParsePool();
  for (const path of paths) pool.add({ path, absolute: join(root, path) });
  return pool.finish();
}

async function parseHere(files: { path: string; bytes: Buffer; hash: string }[]): Promise<Omit<Parsed, 'chunks'>> {
  const entries: FileIndex[] = [];
  const skipped: SkippedFile[] = [];
  for (const file of files) {
    try {
      entries.push(await indexSource(file.path, file.bytes, file.hash));
    } catch (error) {
      skipped.push(parseFailure(file.path, error));
    }
  }
  return { entries, skipped };
}
