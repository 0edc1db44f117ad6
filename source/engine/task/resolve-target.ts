import { existsSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { TenetError } from '../errors';
import { listDefinitions, type Definition } from '../python-source/definitions';
import { implementations } from '../python-source/overloads';
import { parsePython } from '../python-source/parser';
import { readSource, type SourceText } from '../python-source/source-text';
import { closestNames } from '../util/closest';
import { listPythonFiles } from '../workspace/walk';
import { formatTarget, parseTargetSpec } from './target-spec';

/** The target function found in the user's repository. */
export interface ResolvedTarget {
  /** Posix path of the module relative to the repository root. */
  file: string;
  qualname: string;
  /**
   * `file::qualname`, the name used everywhere else (chains, reports, sessions); `@LINE` (its first
   * line) is added when another definition has that qualname (a property's getter and setter), so
   * the name a session records picks this one again when it is resumed or rerun.
   */
  id: string;
  /** The module's text as read from the checkout (the original, before any blanking). */
  source: SourceText;
  /** 1-based line range of the definition, decorators included. */
  startLine: number;
  endLine: number;
}

/**
 * A target's module, named as typed (relative to the repository, or absolute inside it): its posix
 * path relative to the repository and its text. Refused outside the repository, or missing (with
 * the closest files).
 */
export function targetModule(repoDir: string, given: string): { file: string; source: SourceText } {
  const root = resolve(repoDir);
  const absolute = isAbsolute(given) ? given : join(root, given);
  const rel = relative(root, absolute);
  if (rel.startsWith('..') || isAbsolute(rel)) {
    throw new TenetError(`Target file ${given} is outside the repository ${root}.`, 'name the file relative to --repo');
  }
  const file = rel.split(sep).join('/');
  if (!existsSync(absolute) || !statSync(absolute).isFile()) {
    const suggestions = closestNames(file, listPythonFiles(root));
    throw new TenetError(
      `Target file ${file} does not exist in ${root}.${listing('Closest files', suggestions)}`,
      'pass --target with a module path relative to --repo',
    );
  }
  return { file, source: readSource(absolute) };
}

export async function resolveTarget(repoDir: string, raw: string): Promise<ResolvedTarget> {
  const spec = parseTargetSpec(raw);
  const { file, source } = targetModule(repoDir, spec.file);
  const tree = await parsePython(source.text);
  try {
    const definitions = listDefinitions(tree);
    const functions = definitions.filter((d) => d.kind === 'function');
    // `@overload` stubs are signatures, not implementations: the real definition is the target.
    const real = implementations(functions, tree);
    const named = functions.filter((d) => d.qualname === spec.qualname);
    const atLine = spec.line === undefined ? [] : named.filter((d) => covers(d, spec.line!));
    const stub = atLine.length === 1 && !real.includes(atLine[0]!) ? atLine[0] : undefined;
    if (stub) {
      const implementation = real.find((d) => d.qualname === spec.qualname)!;
      throw new TenetError(
        `Target ${formatTarget(file, spec.qualname)}@${spec.line} is an @overload stub (a signature for type checkers), not an implementation.`,
        `name the implementation: --target ${formatTarget(file, spec.qualname)}@${implementation.startLine}, or leave @LINE out`,
      );
    }
    // The short form of a nested function, its qualname without `.<locals>` (make_scaler.scale for
    // make_scaler.<locals>.scale), names it when no definition has the name itself.
    const family = named.length
      ? real.filter((d) => d.qualname === spec.qualname)
      : real.filter((d) => withoutLocals(d.qualname) === spec.qualname);
    const matches =
      spec.line === undefined ? family : named.length ? atLine : family.filter((d) => covers(d, spec.line!));
    if (matches.length === 1) {
      const found = matches[0]!;
      const id = pickingForm(file, found, real);
      return { file, qualname: found.qualname, id, source, startLine: found.startLine, endLine: found.endLine };
    }
    if (matches.length > 1) {
      const lines = matches.map((d) => `${formatTarget(file, d.qualname)}@${d.startLine}`);
      throw new TenetError(
        `Target ${formatTarget(file, spec.qualname)} is ambiguous: ${matches.length} definitions have that name.${listing('Definitions', lines)}`,
        `add @LINE to pick one, e.g. --target ${lines[0]}`,
      );
    }
    // A name that exists, with a line in none of its definitions: say where they are, not that it is missing.
    if (spec.line !== undefined && family.length) {
      const lines = family.map((d) => (d.startLine === d.endLine ? `${d.startLine}` : `${d.startLine}-${d.endLine}`));
      const forms = family.map((d) => `${formatTarget(file, d.qualname)}@${d.startLine}`);
      throw new TenetError(
        `No definition of ${spec.qualname} at line ${spec.line} of ${file}: it is defined at line${lines.length > 1 || lines[0]!.includes('-') ? 's' : ''} ${joinWords(lines)}.` +
          listing('Definitions', forms),
        family.length > 1
          ? `pick one with a line inside it, e.g. --target ${forms[0]}`
          : `leave @LINE out: --target ${formatTarget(file, spec.qualname)}`,
      );
    }
    const klass = definitions.find((d) => d.kind === 'class' && d.qualname === spec.qualname);
    if (klass) {
      const methods = real.filter(
        (d) => d.qualname.startsWith(`${klass.qualname}.`) && !d.qualname.includes('<locals>', klass.qualname.length),
      );
      // A method defined twice (a property's getter and setter) is listed with @LINE, as the ambiguity error names it.
      const names = methods.map((d) => pickingForm(file, d, real));
      throw new TenetError(
        `Target ${formatTarget(file, spec.qualname)} is a class; tenet generates one function.${listing('Its methods', names)}`,
        `name a method: ${formatTarget(file, `${klass.qualname}.method`)}`,
      );
    }
    // A name defined twice is offered in the @LINE forms that pick each, as the ambiguity error would ask.
    const suggestions = closestNames(spec.qualname, [...new Set(functions.map((d) => d.qualname))]).flatMap((q) => {
      const defined = real.filter((d) => d.qualname === q);
      return defined.length ? defined.map((d) => pickingForm(file, d, real)) : [formatTarget(file, q)];
    });
    const notFound = new TenetError(
      `No function ${spec.qualname} in ${file}.${listing('Closest names', suggestions)}`,
      'pass --target with a function defined in that file (Python __qualname__, e.g. Class.method)',
    );
    // A file that does not parse loses definitions (a `def` without its colon takes the methods
    // after it out of their class): that, not the name, is what to fix.
    if (tree.rootNode.hasError) throw new TargetInBrokenFile(file, spec.qualname, source.text, notFound);
    throw notFound;
  } finally {
    tree.delete();
  }
}

/**
 * The target was not found in a file tree-sitter cannot parse. Where the mistake is, is Python's
 * to say (tree-sitter's error spans often start lines before it): openTask asks the task's
 * interpreter (see brokenTargetFile), and gives `notFound` when Python compiles the file after all.
 */
export class TargetInBrokenFile extends TenetError {
  constructor(
    readonly file: string,
    readonly qualname: string,
    readonly text: string,
    readonly notFound: TenetError,
  ) {
    super(
      `${file} does not parse, so tenet cannot find ${qualname} in it.`,
      `fix the syntax error in ${file} (python -m py_compile ${file} shows where), then run tenet again`,
    );
  }
}

/**
 * The error for a module of the repository that does not compile, from Python's description of
 * where (`line 2, column 19: expected ':'` then the line and a caret), saying what it prevents.
 */
export function brokenModuleError(file: string, problem: string, consequence: string): TenetError {
  const [where, ...shown] = problem.split('\n');
  const line = /line (\d+)/.exec(where ?? '')?.[1] ?? '?';
  return new TenetError(
    `${file} does not compile (${where}), so ${consequence}:\n${shown.join('\n')}`,
    `fix the syntax error at ${file}:${line}, then run tenet again`,
  );
}

/** The target form that picks `d` among `definitions`: `file::name`, with `@LINE` where the name is defined more than once. */
export function pickingForm(file: string, d: Definition, definitions: readonly Definition[]): string {
  const twice = definitions.filter((other) => other.qualname === d.qualname).length > 1;
  return formatTarget(file, d.qualname) + (twice ? `@${d.startLine}` : '');
}

/** A qualname as written short, its `.<locals>` parts left out: `make_scaler.<locals>.scale` → `make_scaler.scale`. */
function withoutLocals(qualname: string): string {
  return qualname.replace(/\.<locals>/g, '');
}

function covers(d: Definition, line: number): boolean {
  return d.startLine <= line && line <= d.endLine;
}

/** `2`, `2 and 5`, `2, 5 and 9`. */
function joinWords(items: string[]): string {
  return items.length > 1 ? `${items.slice(0, -1).join(', ')} and ${items.at(-1)}` : (items[0] ?? '');
}

export function listing(title: string, items: string[]): string {
  return items.length ? `\n  ${title}:\n${items.map((i) => `    ${i}`).join('\n')}` : '';
}
