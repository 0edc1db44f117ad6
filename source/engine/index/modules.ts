import type { RepoIndex } from './repo-index';
import type { FileIndex, ImportEntry } from './types';

/**
 * Python module names for the repository's files, as imports spell them. A file's package root is
 * the first folder above it without an `__init__.py` (so `src/pkg/mod.py` is `pkg.mod`); its full
 * dotted path from the repository root is accepted too (namespace packages, odd layouts).
 */
export class ModuleMap {
  private readonly names = new Map<string, string[]>();
  private readonly byName = new Map<string, string>();
  private static readonly built = new WeakMap<readonly FileIndex[], ModuleMap>();

  /** The map of the index as it is now (kept until a file is added, changed or removed). */
  static of(index: RepoIndex): ModuleMap {
    const files = index.files;
    let map = ModuleMap.built.get(files);
    if (!map) {
      map = new ModuleMap(index);
      ModuleMap.built.set(files, map);
    }
    return map;
  }

  private readonly files: readonly FileIndex[];

  constructor(index: RepoIndex) {
    this.files = index.files;
    const paths = new Set(index.files.map((f) => f.path));
    const hasInit = (dir: string) => paths.has(dir ? `${dir}/__init__.py` : '__init__.py');
    for (const path of paths) {
      const parts = path.replace(/\.py$/, '').split('/');
      if (parts[parts.length - 1] === '__init__') parts.pop();
      const candidates = new Set<string>();
      let start = parts.length - 1;
      const dirs = path.split('/').slice(0, -1);
      // Climb while the folder is a package.
      let depth = dirs.length;
      while (depth > 0 && hasInit(dirs.slice(0, depth).join('/'))) depth--;
      start = Math.min(depth, parts.length - 1);
      if (parts.length) candidates.add(parts.slice(start).join('.'));
      candidates.add(parts.join('.'));
      const list = [...candidates].filter(Boolean);
      this.names.set(path, list);
      for (const name of list) if (!this.byName.has(name)) this.byName.set(name, path);
    }
  }

  /** Module names of a file, the package-rooted one first. */
  namesOf(path: string): string[] {
    return this.names.get(path) ?? [];
  }

  fileOf(moduleName: string): string | undefined {
    return this.byName.get(moduleName);
  }

  private readonly absolutes = new WeakMap<ImportEntry, string>();
  private importers?: Map<string, { file: FileIndex; entry: ImportEntry }[]>;

  /** Top-level `from … import` statements by the absolute module they import from. */
  importersOf(module: string): readonly { file: FileIndex; entry: ImportEntry }[] {
    if (!this.importers) {
      this.importers = new Map();
      for (const file of this.files) {
        for (const entry of file.imports) {
          if (!entry.isFrom || !entry.topLevel) continue;
          const source = this.absolute(entry, file.path);
          const list = this.importers.get(source);
          if (list) list.push({ file, entry });
          else this.importers.set(source, [{ file, entry }]);
        }
      }
    }
    return this.importers.get(module) ?? [];
  }

  /** The absolute module an import refers to (relative imports resolved against the importing file). */
  absolute(entry: ImportEntry, fromPath: string): string {
    if (!entry.level) return entry.module;
    let known = this.absolutes.get(entry);
    if (known === undefined) {
      known = this.resolveRelative(entry, fromPath);
      this.absolutes.set(entry, known);
    }
    return known;
  }

  private resolveRelative(entry: ImportEntry, fromPath: string): string {
    const own = this.namesOf(fromPath)[0] ?? '';
    const parts = own.split('.');
    // A module's package is its name minus the last part; a package's __init__ is its own package.
    const packageParts = fromPath.endsWith('__init__.py') ? parts : parts.slice(0, -1);
    const base = packageParts.slice(0, Math.max(0, packageParts.length - (entry.level - 1)));
    return [...base, ...(entry.module ? [entry.module] : [])].filter(Boolean).join('.');
  }
}

/** How a file can name a module-level object `name` of module `module` (directly or through re-exports). */
export interface Bindings {
  /** Local names that are the object itself: `from m import f`, `from m import f as g`, `from pkg import f` (re-exported). */
  direct: Set<string>;
  /**
   * Local names (dotted) of modules that expose the object, with the name they expose it under:
   * `import m`, `import m as x`, `from pkg import m`, and packages that re-export it (`import pkg as p`
   * when pkg/__init__ does `from .m import *`).
   */
  modules: Map<string, string>;
  /** How each name came, in a few words for the usage report (`imported from pkg.mod as g`, `module pkg.mod, imported as m`). */
  via: Map<string, string>;
}

/** Modules that expose `name` of `module`: the module itself and packages re-exporting it (up to 5 hops). */
function exporters(modules: ModuleMap, module: string, name: string): Map<string, string> {
  const found = new Map<string, string>([[module, name]]);
  let frontier = [module];
  for (let hop = 0; hop < 5 && frontier.length; hop++) {
    const next: string[] = [];
    for (const source of frontier) {
      const exported = found.get(source)!;
      for (const { file, entry } of modules.importersOf(source)) {
        for (const imported of entry.names) {
          if (imported.name !== exported && imported.name !== '*') continue;
          const as = imported.name === '*' ? exported : (imported.alias ?? imported.name);
          for (const own of modules.namesOf(file.path)) {
            if (!found.has(own)) {
              found.set(own, as);
              next.push(own);
            }
          }
        }
      }
    }
    frontier = next;
  }
  return found;
}

/**
 * How each file can name the object; `exposedAs` holds the names modules expose it under (its own,
 * and re-export aliases), so a file that calls none of them (or an import alias of one) needs no look.
 */
export function bindingsFor(
  _index: RepoIndex,
  modules: ModuleMap,
  targetPath: string,
  name: string,
): ((file: FileIndex) => Bindings) & { exposedAs: ReadonlySet<string> } {
  const targetModules = modules.namesOf(targetPath);
  const exporting = new Map<string, string>();
  for (const module of targetModules) for (const [m, n] of exporters(modules, module, name)) exporting.set(m, n);
  return Object.assign(
    (file: FileIndex) => {
      const bindings: Bindings = { direct: new Set(), modules: new Map(), via: new Map() };
      if (file.path === targetPath) bindings.direct.add(name);
      for (const entry of file.imports) {
        const source = entry.isFrom ? modules.absolute(entry, file.path) : entry.module;
        if (!entry.isFrom) {
          const exposed = exporting.get(entry.module);
          if (exposed !== undefined) {
            const local = entry.moduleAlias ?? entry.module;
            bindings.modules.set(local, exposed);
            bindings.via.set(
              local,
              `module ${entry.module}${entry.moduleAlias ? `, imported as ${entry.moduleAlias}` : ''}`,
            );
          }
          continue;
        }
        const exported = exporting.get(source);
        for (const imported of entry.names) {
          if (exported !== undefined && (imported.name === exported || imported.name === '*')) {
            const local = imported.name === '*' ? exported : (imported.alias ?? imported.name);
            bindings.direct.add(local);
            bindings.via.set(
              local,
              `imported from ${source}${imported.name === '*' ? ' (star import)' : local !== exported ? ` as ${local}` : ''}`,
            );
          }
          // `from pkg import mod` binds a module that exposes the object.
          const submodule = exporting.get(source ? `${source}.${imported.name}` : imported.name);
          if (submodule !== undefined) {
            const local = imported.alias ?? imported.name;
            bindings.modules.set(local, submodule);
            bindings.via.set(
              local,
              `module ${source ? `${source}.` : ''}${imported.name}, imported from ${source || '.'}${imported.alias ? ` as ${imported.alias}` : ''}`,
            );
          }
        }
      }
      return bindings;
    },
    { exposedAs: new Set([name, ...exporting.values()]) },
  );
}
