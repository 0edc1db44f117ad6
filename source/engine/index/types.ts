/**
 * What the repository index knows about one file. Plain data (no tree-sitter objects) so it can
 * cross worker threads and be cached on disk. Lines are 1-based and inclusive.
 */
export interface ClassEntry {
  name: string;
  qualname: string;
  bases: string[];
  start: number;
  end: number;
}

export interface FunctionEntry {
  name: string;
  qualname: string;
  /** Qualname of the class the function is defined in directly (a method), else null. */
  className: string | null;
  /** `(self, x: int = 1)` as written. */
  params: string;
  returns: string | null;
  decorators: string[];
  /** Start of the docstring, capped (enough for similarity search and signatures). */
  docstring: string;
  isAsync: boolean;
  /** First line (decorators included), line of `def`, last line. */
  start: number;
  defLine: number;
  end: number;
}

export interface ImportEntry {
  /** The statement as written, on one line. */
  text: string;
  line: number;
  /** At module level (not inside a function, class, or other block except try/if). */
  topLevel: boolean;
  /** `import a.b as c` → module 'a.b', names []; `from .x import y as z` → module 'x', level 1, names [{y, z}]. */
  module: string;
  level: number;
  names: { name: string; alias: string | null }[];
  /** `import a.b` / `import a.b as c`: the aliases bound (c, or a). */
  isFrom: boolean;
  moduleAlias: string | null;
}

export type ReceiverKind = 'none' | 'self' | 'cls' | 'super' | 'other';

export interface CallEntry {
  /** The called name: `f` in `f()`, `m` in `x.m()`. */
  name: string;
  receiver: ReceiverKind;
  /** The receiver expression as written (`np.linalg`, `self.items`), capped; '' when none. */
  receiverText: string;
  line: number;
  column: number;
  /** Qualname of the innermost enclosing function, or null at module/class level. */
  enclosing: string | null;
}

export interface FileIndex {
  path: string;
  /** sha1 of the file's bytes: the cache key. */
  hash: string;
  lineCount: number;
  /** tree-sitter found syntax errors (the index still holds what parsed). */
  hasErrors: boolean;
  classes: ClassEntry[];
  functions: FunctionEntry[];
  imports: ImportEntry[];
  /** Every call site, packed (see calls.ts): a few flat values per file cross threads and the disk cache cheaply. */
  calls: PackedCalls;
}

/**
 * A file's call sites in two flat values instead of an object each (sympy has ~360,000): the
 * strings they use, once each, and CALL_FIELDS integers per call (see calls.ts).
 */
export interface PackedCalls {
  /** Names and receiver texts, each once, each line framed by newlines: `\nf\nself.items\n`. */
  strings: string;
  data: Int32Array;
}

/** Bumped whenever FileIndex or its extraction changes, so old caches are ignored. */
export const INDEX_FORMAT = 4;
