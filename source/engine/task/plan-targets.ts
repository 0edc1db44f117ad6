import { TenetError } from '../errors';
import { listDefinitions, type Definition } from '../python-source/definitions';
import { functionParts, isStubBody } from '../python-source/function-parts';
import { implementations } from '../python-source/overloads';
import { parsePython } from '../python-source/parser';
import type { SourceText } from '../python-source/source-text';
import { listing, pickingForm, resolveTarget, targetModule } from './resolve-target';
import { formatTarget } from './target-spec';

/** A function of a plan, where it is in the checkout (see protocol/plan.ts for what the plan shows of it). */
export interface PlanPlace {
  /** `file::qualname`, with `@LINE` where the name is defined twice: the name a single run would take. */
  target: string;
  file: string;
  qualname: string;
  /** Among the real definitions of `qualname` in the file, which one (0: the first). */
  nth: number;
  startLine: number;
  signature: string;
  summary: string;
}

/**
 * The functions `--target` names, or undefined when it names one function (a single run, as
 * always). A file (`pkg/mod.py`) stands for every stub in it, a class (`pkg/mod.py::Shape`) for
 * every stub among its methods, and each `--target` given adds its own, in the order given (a
 * function named twice counts once). A stub is a body as stub mode takes it: `pass`, `...`,
 * `raise NotImplementedError`, or a docstring alone; an `@overload` is a signature, and an
 * `@abstractmethod` an interface, so neither is one. A file or class with no stub is refused,
 * with the names of its functions.
 */
/** Whether `--target` asks for a plan: several targets, a file, or a class (one function is a single run). */
export async function isPlan(repoDir: string, specs: readonly string[]): Promise<boolean> {
  return specs.length > 1 || !specs[0]!.includes('::') || (await namesClass(repoDir, specs[0]!));
}

export async function expandTargets(repoDir: string, specs: readonly string[]): Promise<PlanPlace[] | undefined> {
  if (!(await isPlan(repoDir, specs))) return undefined;
  const places: PlanPlace[] = [];
  for (const spec of specs)
    for (const place of await placesOf(repoDir, spec))
      if (!places.some((p) => p.target === place.target)) places.push(place);
  return places;
}

/** Whether `file::Name` names a class (and no function): the class's stubs are then a plan. */
async function namesClass(repoDir: string, spec: string): Promise<boolean> {
  const [file, name] = splitSpec(spec);
  const { source } = targetModule(repoDir, file);
  const tree = await parsePython(source.text);
  try {
    const definitions = listDefinitions(tree);
    return (
      definitions.some((d) => d.kind === 'class' && d.qualname === name) &&
      !definitions.some((d) => d.kind === 'function' && d.qualname === name)
    );
  } finally {
    tree.delete();
  }
}

const splitSpec = (spec: string): [string, string] => {
  const at = spec.indexOf('::');
  return at === -1 ? [spec, ''] : [spec.slice(0, at), spec.slice(at + 2).replaceAll('::', '.')];
};

async function placesOf(repoDir: string, spec: string): Promise<PlanPlace[]> {
  if (spec.includes('::') && !(await namesClass(repoDir, spec))) {
    // One function: resolved as a single run resolves it (its errors, its @LINE).
    const resolved = await resolveTarget(repoDir, spec);
    return withCandidates(resolved.file, resolved.source, (candidates) =>
      candidates.filter((d) => d.qualname === resolved.qualname && d.startLine === resolved.startLine),
    );
  }
  const [file, klass] = splitSpec(spec);
  if (!file.endsWith('.py'))
    throw new TenetError(
      `Target "${spec}": "${file}" is not a Python file.`,
      'name a module (pkg/mod.py: its stubs), a class (pkg/mod.py::Class: its stubs) or a function (pkg/mod.py::function)',
    );
  const module = targetModule(repoDir, file);
  const inScope = (d: Definition) => !klass || d.qualname.startsWith(`${klass}.`);
  let scope: Definition[] = [];
  const places = await withCandidates(module.file, module.source, (candidates) => {
    scope = candidates.filter(inScope);
    return scope.filter((d) => isStubBody(d.node) && !isAbstract(d));
  });
  if (places.length) return places;
  const where = klass ? `class ${klass} in ${module.file}` : module.file;
  const names = scope.map((d) => formatTarget(module.file, d.qualname));
  throw new TenetError(
    `${where[0]!.toUpperCase()}${where.slice(1)} has no stub to implement (a body of pass, ..., raise NotImplementedError, or a docstring alone)${names.length ? '; its functions are implemented.' : ', nor any function.'}${listing('Its functions', names)}`,
    names.length
      ? `name one with --target ${names[0]} (stub mode runs the tests against its body), or stub the bodies to generate`
      : 'name a module or class that defines the functions to generate',
  );
}

/** An `@abstractmethod` (or abstract property) is an interface's, not a stub to implement. */
function isAbstract(definition: Definition): boolean {
  const { outer, node } = definition;
  if (outer === node) return false;
  return outer.namedChildren.some((c) => c?.type === 'decorator' && /\babstract(method|property)\b/.test(c.text));
}

/**
 * The file's functions a plan can take (implementations, not `@overload` signatures, none nested
 * in a function) that `pick` keeps, as plan places.
 */
async function withCandidates(
  file: string,
  source: SourceText,
  pick: (candidates: Definition[]) => Definition[],
): Promise<PlanPlace[]> {
  const tree = await parsePython(source.text);
  try {
    const functions = listDefinitions(tree).filter((d) => d.kind === 'function');
    const real = implementations(functions, tree);
    const candidates = real.filter((d) => !d.qualname.includes('<locals>'));
    return pick(candidates).map((definition) => placeOf(file, source.text, definition, real));
  } finally {
    tree.delete();
  }
}

function placeOf(file: string, text: string, definition: Definition, real: Definition[]): PlanPlace {
  const parts = functionParts(text, definition);
  const signature = text.slice(parts.defStart, parts.headerEnd).replace(/\s+/g, ' ').trim();
  const summary =
    (parts.docstring ?? '')
      .replace(/^[rRuU]*("""|'''|"|')/, '')
      .replace(/("""|'''|"|')$/, '')
      .split('\n')
      .map((line) => line.trim())
      .find(Boolean) ?? '';
  return {
    target: pickingForm(file, definition, real),
    file,
    qualname: definition.qualname,
    nth: real.filter((d) => d.qualname === definition.qualname).indexOf(definition),
    startLine: definition.startLine,
    signature,
    summary,
  };
}

/**
 * The definition of a plan's target in a module as the plan has changed it (earlier targets'
 * code moves the lines below them): the `nth` real definition of its qualname.
 */
export async function locateTarget(
  text: string,
  place: Pick<PlanPlace, 'qualname' | 'nth' | 'target'>,
): Promise<{ startLine: number; endLine: number }> {
  const tree = await parsePython(text);
  try {
    const functions = listDefinitions(tree).filter((d) => d.kind === 'function');
    const found = implementations(functions, tree).filter((d) => d.qualname === place.qualname)[place.nth];
    if (!found) throw new TenetError(`Lost track of ${place.target} in its module; this is a tenet error.`);
    return { startLine: found.startLine, endLine: found.endLine };
  } finally {
    tree.delete();
  }
}
