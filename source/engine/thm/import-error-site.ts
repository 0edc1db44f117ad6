import { posix } from 'node:path';
import type { ImportErrorKind } from '../protocol/thm-report';

/** What a test module's import error is, and where in the repository it comes from. */
export interface ImportErrorSite {
  kind: ImportErrorKind;
  /** `path:line` relative to the repository; absent when the error comes from outside it. */
  at?: string;
}

/** `ModuleNotFoundError: No module named 'x'` (an `ImportError` saying so, before Python 3.6). */
const MISSING_MODULE = /^(ModuleNotFoundError\b|ImportError: No module named\b)/;
const SYNTAX_ERROR = /^(SyntaxError|IndentationError|TabError)\b/;

/**
 * The kind of a collection error, from the first line of its message, and the repository file and
 * line it comes from, from pytest's report: a syntax error's `File "…", line N` (the module that
 * does not compile, often not the test module), else the innermost traceback frame inside the
 * workspace (`File "…", line N, in …` as --tb=native prints it, `path:line: in …` as pytest's
 * other styles do). A missing module has no line to fix: it is installed or left out. `roots`
 * are the workspace's paths as pytest prints them (the folder, and as the sandbox sees it); a
 * relative path is the workspace's already.
 */
export function importErrorSite(message: string, longrepr: string, roots: readonly string[]): ImportErrorSite {
  if (MISSING_MODULE.test(message)) return { kind: 'missing-module' };
  const lines = longrepr.split('\n').map((line) => line.replace(/^E\s+/, '').trimEnd());
  const inRepo = (file: string): string | undefined => {
    if (file.startsWith('<')) return undefined;
    if (!posix.isAbsolute(file)) return posix.normalize(file).startsWith('../') ? undefined : posix.normalize(file);
    for (const root of roots) {
      const rel = posix.relative(root, file);
      if (rel && !rel.startsWith('../') && !posix.isAbsolute(rel)) return rel;
    }
    return undefined;
  };
  const last = <T>(found: (T | undefined)[]): T | undefined => found.filter((x): x is T => x !== undefined).at(-1);
  if (SYNTAX_ERROR.test(message)) {
    const at = last(
      lines
        .map((line) => /^\s*File "(.+)", line (\d+)/.exec(line))
        .map((m) => (m ? siteOf(inRepo(m[1]!), m[2]!) : undefined)),
    );
    return { kind: 'syntax-error', ...(at ? { at } : {}) };
  }
  const at = last(
    lines
      .map((line) => /^\s*File "(.+)", line (\d+), in /.exec(line) ?? /^(\S.*?):(\d+): in /.exec(line))
      .map((m) => (m ? siteOf(inRepo(m[1]!), m[2]!) : undefined)),
  );
  return { kind: 'error', ...(at ? { at } : {}) };
}

function siteOf(file: string | undefined, line: string): string | undefined {
  return file ? `${file}:${line}` : undefined;
}
