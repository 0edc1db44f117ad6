import type { Located, RepoIndex } from '../index/repo-index';
import { isTestPath } from '../index/repo-index';
import type { ClassEntry, FunctionEntry } from '../index/types';
import { numbered, type Hit } from './format';

/** The last part of a qualname's class path: `A.B` for `A.B.method`, null for a module function. */
export function classOf(entry: FunctionEntry): string | null {
  return entry.className;
}

export function functionHit(index: RepoIndex, { file, entry }: Located<FunctionEntry>): Hit {
  const lines = index.lines(file.path).slice(entry.start - 1, entry.end);
  return {
    file: file.path,
    className: entry.className,
    functionName: entry.name,
    code: numbered(lines, entry.start),
    ...(isTestPath(file.path) ? { note: 'test file' } : {}),
  };
}

export function classHit(index: RepoIndex, { file, entry }: Located<ClassEntry>, full: boolean): Hit {
  if (full) {
    return {
      file: file.path,
      className: entry.qualname,
      code: numbered(index.lines(file.path).slice(entry.start - 1, entry.end), entry.start),
    };
  }
  // The signature: the class line and each method's signature, no bodies.
  const lines = index.lines(file.path);
  const header = lines[entry.start - 1]!;
  const methods = file.functions.filter((f) => f.className === entry.qualname);
  const width = String(entry.end).length;
  const row = (line: number, text: string) => `${String(line).padStart(width)} ${text}`;
  const headerLine = entry.start;
  const out = [row(headerLine, header)];
  if (!/:\s*(#.*)?$/.test(header)) {
    // A class header over several lines: show up to its colon.
    for (let line = headerLine + 1; line <= entry.end; line++) {
      out.push(row(line, lines[line - 1]!));
      if (/:\s*(#.*)?$/.test(lines[line - 1]!)) break;
    }
  }
  const indent = /^\s*/.exec(lines[(methods[0]?.defLine ?? entry.start) - 1] ?? '')?.[0] ?? '    ';
  for (const method of methods) {
    for (const decorator of method.decorators) out.push(row(method.start, `${indent}@${decorator}`));
    const returns = method.returns ? ` -> ${method.returns}` : '';
    out.push(
      row(
        method.defLine,
        `${indent}${method.isAsync ? 'async ' : ''}def ${method.name}${method.params}${returns}: ...`,
      ),
    );
  }
  return { file: file.path, className: entry.qualname, code: out.join('\n') };
}

/** Non-test files first, then by path and line: what the model most likely wants comes first. */
export function byRelevance<T extends { file: { path: string }; entry: { start: number } }>(a: T, b: T): number {
  const testA = isTestPath(a.file.path) ? 1 : 0;
  const testB = isTestPath(b.file.path) ? 1 : 0;
  return (
    testA - testB ||
    (a.file.path < b.file.path ? -1 : a.file.path > b.file.path ? 1 : 0) ||
    a.entry.start - b.entry.start
  );
}
