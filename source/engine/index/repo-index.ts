import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeSource } from '../python/source-text';
import { callsOf, indexFile } from './parse-file';
import type { CallEntry, ClassEntry, FileIndex, FunctionEntry } from './types';

export interface Located<T> {
  file: FileIndex;
  entry: T;
}

const TEST_DIR = /(^|\/)(tests?|testing)\//;
const TEST_FILE = /(^|\/)(test_[^/]*|[^/]*_test|conftest)\.py$/;

/** Where pytest projects keep tests: test folders, test_*.py, *_test.py, conftest.py. */
export function isTestPath(path: string): boolean {
  return TEST_DIR.test(path) || TEST_FILE.test(path);
}

function group<T>(items: Iterable<[string, T]>): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const [key, value] of items) {
    const list = map.get(key);
    if (list) list.push(value);
    else map.set(key, [value]);
  }
  return map;
}

/**
 * The repository index: every module's classes, functions, imports and call sites, with lookups
 * by name built on first use. Code is read from the workspace when a tool shows it.
 */
export class RepoIndex {
  private readonly byPath = new Map<string, FileIndex>();
  private classMap?: Map<string, Located<ClassEntry>[]>;
  private functionMap?: Map<string, Located<FunctionEntry>[]>;
  private readonly texts = new Map<string, { text: string; lines?: string[] }>();

  constructor(
    readonly root: string,
    files: Iterable<FileIndex>,
  ) {
    for (const file of files) this.byPath.set(file.path, file);
  }

  get files(): FileIndex[] {
    return [...this.byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  file(path: string): FileIndex | undefined {
    return this.byPath.get(path);
  }

  classesNamed(name: string): Located<ClassEntry>[] {
    this.classMap ??= group(this.files.flatMap((file) => file.classes.map((entry): [string, Located<ClassEntry>] => [entry.name, { file, entry }])));
    return this.classMap.get(name) ?? [];
  }

  functionsNamed(name: string): Located<FunctionEntry>[] {
    this.functionMap ??= group(this.files.flatMap((file) => file.functions.map((entry): [string, Located<FunctionEntry>] => [entry.name, { file, entry }])));
    return this.functionMap.get(name) ?? [];
  }

  /** The file's text in the workspace now. */
  text(path: string): string {
    return this.read(path).text;
  }

  /** Call sites of a file, extracted (and kept) on first need. */
  async callsIn(path: string): Promise<CallEntry[]> {
    const file = this.byPath.get(path);
    if (!file) return [];
    file.calls ??= await callsOf(readFileSync(join(this.root, path)), file);
    return file.calls;
  }

  /**
   * Files that may call `name`: those whose text holds it. A call's name is in its file's text,
   * so this only spares parsing files that cannot match; the calls themselves come from the AST.
   */
  filesMentioning(name: string): FileIndex[] {
    const word = new RegExp(`\\b${name.replace(/[^\w]/g, '')}\\b`);
    return this.files.filter((file) => word.test(this.text(file.path)));
  }

  allFunctions(): Located<FunctionEntry>[] {
    return this.files.flatMap((file) => file.functions.map((entry) => ({ file, entry })));
  }

  private read(path: string): { text: string; lines?: string[] } {
    let entry = this.texts.get(path);
    if (!entry) {
      entry = { text: decodeSource(readFileSync(join(this.root, path))).text };
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

  /** Re-reads and re-indexes one file after it changed in the workspace (a submitted implementation). */
  async update(path: string): Promise<FileIndex> {
    const entry = await indexFile(path, join(this.root, path));
    this.byPath.set(path, entry);
    this.texts.delete(path);
    this.classMap = this.functionMap = undefined;
    return entry;
  }
}
