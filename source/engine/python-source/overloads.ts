import type { Node, Tree } from 'web-tree-sitter';
import type { Definition } from './definitions';

/**
 * `@typing.overload` stubs: signatures for type checkers, replaced at import by the one real
 * definition that follows them. They are never a target, so every place that resolves a target
 * (and bench make's scan) asks this file which definitions are only overloads.
 */
const OVERLOAD_MODULES = new Set(['typing', 'typing_extensions']);

/** An import as this file needs it: `import a as b` (module a, alias b) or `from a import n as b`. */
export interface ImportFact {
  module: string;
  isFrom: boolean;
  moduleAlias: string | null;
  names: { name: string; alias: string | null }[];
}

/**
 * How this module can spell `typing.overload` in a decorator: `typing.overload`,
 * `typing_extensions.overload`, `t.overload` after `import typing as t`, `ov` after
 * `from typing import overload as ov`, and `overload` unless the module binds that name from
 * another package (say `from plum import overload`, whose overloads are implementations).
 */
export function overloadSpellings(imports: readonly ImportFact[]): Set<string> {
  const spellings = new Set(['typing.overload', 'typing_extensions.overload']);
  let bareFromElsewhere = false;
  for (const fact of imports) {
    if (!OVERLOAD_MODULES.has(fact.module)) {
      if (fact.isFrom && fact.names.some((n) => n.name === 'overload' && (n.alias ?? n.name) === 'overload'))
        bareFromElsewhere = true;
      continue;
    }
    if (!fact.isFrom) spellings.add(`${fact.moduleAlias ?? fact.module}.overload`);
    for (const n of fact.names) if (n.name === 'overload') spellings.add(n.alias ?? n.name);
  }
  if (!bareFromElsewhere) spellings.add('overload');
  return spellings;
}

/** `@ t . overload  # comment` → `t.overload`. */
export function decoratorExpression(text: string): string {
  return text.replace(/^@/, '').replace(/#.*$/gm, '').replace(/\s+/g, '');
}

/** The imports of a parsed module: top-level statements and those nested in if/try blocks (`if TYPE_CHECKING:`). */
export function moduleImports(tree: Tree): ImportFact[] {
  const facts: ImportFact[] = [];
  const visit = (node: Node): void => {
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (child.type === 'import_statement') {
        for (const name of child.childrenForFieldName('name')) {
          if (!name) continue;
          const aliased = name.type === 'aliased_import';
          const module = aliased ? name.childForFieldName('name')!.text : name.text;
          facts.push({
            module,
            isFrom: false,
            moduleAlias: aliased ? name.childForFieldName('alias')!.text : null,
            names: [],
          });
        }
      } else if (child.type === 'import_from_statement') {
        const module = child.childForFieldName('module_name')?.text ?? '';
        const names = child.childrenForFieldName('name').flatMap((name): ImportFact['names'] => {
          if (!name) return [];
          if (name.type === 'aliased_import')
            return [{ name: name.childForFieldName('name')!.text, alias: name.childForFieldName('alias')!.text }];
          return [{ name: name.text, alias: null }];
        });
        facts.push({ module, isFrom: true, moduleAlias: null, names });
      } else if (
        /^(if_statement|elif_clause|else_clause|try_statement|except_clause|finally_clause|block)$/.test(child.type)
      ) {
        visit(child);
      }
    }
  };
  visit(tree.rootNode);
  return facts;
}

/** Whether a definition is an `@overload` stub, given the module's spellings of it. */
export function isOverloadStub(d: Definition, spellings: ReadonlySet<string>): boolean {
  if (d.outer === d.node) return false;
  return d.outer.namedChildren.some((c) => c?.type === 'decorator' && spellings.has(decoratorExpression(c.text)));
}

/**
 * The definitions that implement something: `@overload` stubs are dropped where the same qualname
 * has a real definition (a name with overloads only keeps them, so it is still found).
 */
export function implementations(definitions: readonly Definition[], tree: Tree): Definition[] {
  const spellings = overloadSpellings(moduleImports(tree));
  const stubs = new Set(definitions.filter((d) => d.kind === 'function' && isOverloadStub(d, spellings)));
  if (!stubs.size) return [...definitions];
  const implemented = new Set(definitions.filter((d) => d.kind === 'function' && !stubs.has(d)).map((d) => d.qualname));
  return definitions.filter((d) => !(stubs.has(d) && implemented.has(d.qualname)));
}
