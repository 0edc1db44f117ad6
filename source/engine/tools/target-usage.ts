import * as z from 'zod';
import { bindingsFor, ModuleMap } from '../index/modules';
import { isTestPath, type RepoIndex } from '../index/repo-index';
import type { CallEntry, FileIndex } from '../index/types';
import type { PreparedTarget } from '../task/prepare-target';
import { block, numbered } from './format';
import { plural } from '../util/plural';
import { defineTool } from './tool';

export interface CallSite {
  file: FileIndex;
  call: CallEntry;
  /** Resolved through imports, the module, self/cls/super or the class; false: a method call on a receiver of unknown type. */
  resolved: boolean;
  how: string;
}

/** What finding a function's call sites needs of it: where it is defined, and its name there. */
type UsedTarget = Pick<PreparedTarget, 'file' | 'qualname'>;

const lastPart = (dotted: string) => dotted.split('.').pop()!;

function functionUsages(index: RepoIndex, modules: ModuleMap, target: UsedTarget): CallSite[] {
  const name = lastPart(target.qualname);
  const bind = bindingsFor(index, modules, target.file, name);
  // A call of the object goes by a name it is exposed under, or by an alias an import gives one.
  const callNames = new Set(bind.exposedAs);
  for (const file of index.files) {
    for (const entry of file.imports)
      for (const imported of entry.names)
        if (imported.alias && bind.exposedAs.has(imported.name)) callNames.add(imported.alias);
  }
  const usages: CallSite[] = [];
  for (const file of index.filesCalling(...callNames)) {
    const bindings = bind(file);
    if (!bindings.direct.size && !bindings.modules.size) continue;
    // Only calls by a name the object is bound to here, or exposed under by a module.
    for (const call of index.callsIn(file.path, [...bindings.direct, ...bindings.modules.values()])) {
      if (call.receiver === 'none' && bindings.direct.has(call.name)) {
        usages.push({ file, call, resolved: true, how: bindings.via.get(call.name) ?? 'defined in the same module' });
      } else if (call.receiver === 'other' && bindings.modules.get(call.receiverText) === call.name) {
        usages.push({ file, call, resolved: true, how: `called on ${bindings.via.get(call.receiverText)}` });
      }
    }
  }
  return usages;
}

function methodUsages(index: RepoIndex, modules: ModuleMap, target: UsedTarget): CallSite[] {
  const parts = target.qualname.split('.');
  const name = parts.pop()!;
  const classQualname = parts.join('.');
  const className = lastPart(classQualname);
  // The class and its subclasses (bases matched by name: `Base`, `mod.Base`).
  const family = new Set<string>([`${target.file}::${classQualname}`]);
  const subclasses = new Set<string>();
  for (let grew = true; grew; ) {
    grew = false;
    const names = new Set([...family].map((k) => lastPart(k.split('::')[1]!)));
    for (const file of index.files) {
      for (const klass of file.classes) {
        if (!klass.bases.length) continue;
        const key = `${file.path}::${klass.qualname}`;
        if (family.has(key)) continue;
        if (klass.bases.some((base) => names.has(lastPart(base.replace(/\[.*$/, ''))))) {
          family.add(key);
          subclasses.add(key);
          grew = true;
        }
      }
    }
  }
  const familyNames = new Set([...family].map((key) => lastPart(key.split('::')[1]!)));
  const bindClass = bindingsFor(index, modules, target.file, className);
  const usages: CallSite[] = [];
  for (const file of index.filesCalling(name)) {
    const classBindings = bindClass(file);
    const classOf = new Map(file.functions.map((f) => [f.qualname, f.className]));
    for (const call of index.callsIn(file.path, [name])) {
      if (call.receiver === 'none') continue;
      const owner = call.enclosing ? classOf.get(call.enclosing) : null;
      const ownerKey = owner ? `${file.path}::${owner}` : '';
      if ((call.receiver === 'self' || call.receiver === 'cls') && family.has(ownerKey)) {
        usages.push({
          file,
          call,
          resolved: true,
          how: `${call.receiver}.${name}() in ${subclasses.has(ownerKey) ? 'a subclass' : 'the class'}`,
        });
      } else if (call.receiver === 'super' && subclasses.has(ownerKey)) {
        usages.push({ file, call, resolved: true, how: `super().${name}() in a subclass` });
      } else if (
        call.receiver === 'other' &&
        (classBindings.direct.has(call.receiverText) ||
          [...classBindings.modules].some(([m, exposed]) => call.receiverText === `${m}.${exposed}`))
      ) {
        usages.push({ file, call, resolved: true, how: `called on the class ${call.receiverText}` });
      } else if (call.receiver === 'other' && familyNames.has(/^([A-Za-z_]\w*)\(/.exec(call.receiverText)?.[1] ?? '')) {
        usages.push({ file, call, resolved: true, how: `called on a new ${/^(\w+)/.exec(call.receiverText)![1]}` });
      } else {
        usages.push({ file, call, resolved: false, how: `receiver \`${call.receiverText}\` of unknown type` });
      }
    }
  }
  return usages;
}

/** Results by the index's file list (a new list whenever a file changes) and target. */
const found = new WeakMap<readonly FileIndex[], Map<string, CallSite[]>>();

/** Call sites of the target found in the index's call nodes (never by text search), best first. */
export function findTargetUsages(index: RepoIndex, target: UsedTarget): CallSite[] {
  const files = index.files;
  const known = found.get(files) ?? new Map<string, CallSite[]>();
  found.set(files, known);
  const key = `${target.file}::${target.qualname}`;
  let usages = known.get(key);
  if (!usages) {
    usages = searchUsages(index, target);
    known.set(key, usages);
  }
  return usages;
}

function searchUsages(index: RepoIndex, target: UsedTarget): CallSite[] {
  const modules = ModuleMap.of(index);
  const isMethod =
    index.file(target.file)?.functions.some((f) => f.qualname === target.qualname && f.className !== null) ??
    target.qualname.includes('.');
  const usages = isMethod ? methodUsages(index, modules, target) : functionUsages(index, modules, target);
  // Calls inside the target itself (recursion) say nothing about how others use it.
  const own = usages.filter((u) => !(u.file.path === target.file && u.call.enclosing === target.qualname));
  const ranks = new Map(own.map((u) => [u, (u.resolved ? 0 : 2) + (isTestPath(u.file.path) ? 1 : 0)]));
  return own.sort(
    (a, b) =>
      ranks.get(a)! - ranks.get(b)! ||
      (a.file.path < b.file.path ? -1 : a.file.path > b.file.path ? 1 : 0) ||
      a.call.line - b.call.line,
  );
}

const SHOW_WHOLE_FUNCTION = 30;
const AROUND = 4;

/** `told`: whether the file's usages already said how this one reaches the target (said once per file). */
function usageBlock(index: RepoIndex, usage: CallSite, number: number, told: boolean): string {
  const { file, call } = usage;
  const lines = index.lines(file.path);
  const fn = call.enclosing ? file.functions.find((f) => f.qualname === call.enclosing) : undefined;
  let from = Math.max(1, call.line - AROUND);
  let to = Math.min(lines.length, call.line + AROUND);
  if (fn && fn.end - fn.start < SHOW_WHOLE_FUNCTION) {
    from = fn.start;
    to = fn.end;
  }
  const test = isTestPath(file.path);
  const where = fn ? fn.qualname : 'module level';
  const title = `- Usage ${number}: ${file.path}:${call.line} in ${where}${test ? ' [test]' : ''}${told ? '' : ` — ${usage.how}`}`;
  return `${title}\n${block({ file: file.path, className: fn?.className ?? null, functionName: fn?.name ?? null, code: numbered(lines.slice(from - 1, to), from), ...(test ? { note: 'test file' } : {}) })}`;
}

export const searchTargetUsage = defineTool({
  name: 'search_target_usage',
  description:
    'Find up to n places where the target function is called, by analysing the AST (imports, aliases, module attributes; self/cls/super and subclasses for methods), each with its enclosing function. Usages in tests are marked.',
  schema: z.object({
    n: z.coerce.number().int().min(1).max(30).default(5).describe('How many usages to return at most'),
  }),
  run({ n }, { index, target }) {
    const usages = findTargetUsages(index, target);
    if (!usages.length) return `Found no call of ${target.id} in the repository.`;
    const shown = usages.slice(0, n);
    const resolved = usages.filter((u) => u.resolved).length;
    const unresolved = usages.length - resolved;
    const header =
      `Found ${plural(usages.length, 'call')} of ${target.id}` +
      (unresolved ? ` (${resolved} resolved, ${unresolved} on receivers of unknown type, listed last)` : '') +
      `; showing ${shown.length}:`;
    const told = new Set<string>();
    const blocks = shown.map((u, i) => {
      const key = `${u.file.path}\n${u.how}`;
      const block = usageBlock(index, u, i + 1, told.has(key));
      told.add(key);
      return block;
    });
    return [header, ...blocks].join('\n\n');
  },
});
