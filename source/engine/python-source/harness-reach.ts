import type { Node } from 'web-tree-sitter';
import { parsePython } from './parser';

/**
 * A static read of submitted code for what reaches into the test harness (see
 * source/python/_tenet_judge/): the calls the judge's tripwire refuses, and the routes that need
 * no audited call at all, which only a read of the code can see (frames walked through a
 * traceback, `sys.modules`, `__subclasses__`, `__globals__`, the builtins, a module's attributes
 * set). A flag is a warning, said before the code runs; the judge decides the verdict.
 */
export interface HarnessReach {
  /** What the code does, in words: `gc.get_objects`, `sets an attribute of module unittest`. */
  what: string;
  /** 1-based line in the submitted code. */
  line: number;
}

/** Attributes that lead to a frame, code or a namespace, whatever object they are read from. */
const ANY_OBJECT = new Set([
  '__traceback__',
  'tb_frame',
  'f_back',
  'f_globals',
  'f_locals',
  'f_builtins',
  'gi_frame',
  'cr_frame',
  'ag_frame',
  '__subclasses__',
  '__globals__',
  '__code__',
  '__builtins__',
]);

/** Functions of a module the tripwire refuses or that hand out frames or modules. */
const OF_MODULE: Record<string, (name: string) => boolean> = {
  gc: (name) => ['get_objects', 'get_referrers', 'get_referents'].includes(name),
  sys: (name) =>
    ['_getframe', '_current_frames', 'settrace', 'setprofile', 'addaudithook', 'modules', 'exc_info'].includes(name),
  inspect: (name) => ['currentframe', 'stack', 'trace', 'getouterframes', 'getinnerframes'].includes(name),
  traceback: (name) => ['walk_stack', 'walk_tb'].includes(name),
  threading: (name) => name === 'settrace' || name === 'setprofile',
  os: (name) => /^(fork|forkpty|kill|killpg|_exit|system|popen|posix_spawnp?|exec[lv]p?e?|spawn[lv]p?e?)$/.test(name),
};

/** Modules whose mere use reaches the harness or runs code out of sight (later, in C, in another process). */
const MODULES = /^(ctypes|subprocess|pty|pytest|_pytest|pluggy|_tenet\w*|builtins|atexit|signal)(\.|$)/;

/** Builtins that run code the read cannot see. */
const HIDDEN_CODE = new Set(['exec', 'eval', 'compile', '__import__']);

const WRITE_MODE = /[wax+]/;

export async function harnessReach(code: string): Promise<HarnessReach[]> {
  const tree = await parsePython(code);
  try {
    const found = new Map<string, number>();
    const note = (what: string, node: Node) => {
      if (!found.has(what)) found.set(what, node.startPosition.row + 1);
    };
    const modules = importedModules(tree.rootNode);
    const moduleOf = (node: Node | null): string | undefined => {
      let root = node;
      while (root?.type === 'attribute') root = root.childForFieldName('object');
      return root?.type === 'identifier' ? modules.get(root.text) : undefined;
    };
    walk(tree.rootNode, (node) => {
      if (node.type === 'import_statement' || node.type === 'import_from_statement')
        for (const name of node.descendantsOfType('dotted_name')) {
          if (MODULES.test(name!.text)) note(`imports ${name!.text}`, node);
        }
      if (node.type === 'attribute') {
        const attribute = node.childForFieldName('attribute')?.text ?? '';
        const object = node.childForFieldName('object');
        const module = object?.type === 'identifier' ? modules.get(object.text) : undefined;
        if (ANY_OBJECT.has(attribute)) note(attribute, node);
        else if (module && OF_MODULE[module]?.(attribute)) note(`${module}.${attribute}`, node);
        else if (attribute === '__dict__' && moduleOf(node)) note(`${moduleOf(node)}.__dict__`, node);
      }
      if (node.type === 'identifier' && modules.has(node.text)) {
        const module = modules.get(node.text)!;
        const [root, name] = module.includes('.')
          ? [module.slice(0, module.lastIndexOf('.')), module.split('.').pop()!]
          : [module, ''];
        if (name && OF_MODULE[root]?.(name)) note(module, node);
      }
      if (node.type === 'assignment' || node.type === 'augmented_assignment' || node.type === 'delete_statement') {
        const target = node.type === 'delete_statement' ? node.namedChild(0) : node.childForFieldName('left');
        for (const attribute of target ? [target, ...target.descendantsOfType('attribute')] : []) {
          const module = attribute?.type === 'attribute' ? moduleOf(attribute) : undefined;
          if (module) note(`sets an attribute of module ${module}`, node);
        }
      }
      if (node.type === 'call') {
        const callee = node.childForFieldName('function');
        const args = node.childForFieldName('arguments')?.namedChildren ?? [];
        if (callee?.type === 'identifier' && HIDDEN_CODE.has(callee.text)) note(`${callee.text}()`, node);
        if (callee?.text === 'setattr' || callee?.text === 'delattr' || callee?.text === 'vars') {
          const module = args[0]
            ? (moduleOf(args[0]) ?? (args[0].type === 'identifier' ? modules.get(args[0].text) : undefined))
            : undefined;
          if (module) note(`${callee.text}() on module ${module}`, node);
        }
        if (callee?.text === 'globals') note('globals()', node);
        if (callee?.type === 'identifier' && callee.text === 'open') {
          const mode =
            args[1]?.type === 'string'
              ? args[1]
              : args
                  .find((a) => a?.type === 'keyword_argument' && a.childForFieldName('name')?.text === 'mode')
                  ?.childForFieldName('value');
          if (mode?.type === 'string' && WRITE_MODE.test(mode.text.replace(/^[rbuRBU]*['"]+|['"]+$/g, '')))
            note('open() for writing', node);
        }
      }
    });
    return [...found].map(([what, line]) => ({ what, line })).sort((a, b) => a.line - b.line);
  } finally {
    tree.delete();
  }
}

/** Local names bound to modules by the code's imports (`import os.path as p` binds p to os.path; `from sys import _getframe` binds _getframe to sys._getframe). */
function importedModules(root: Node): Map<string, string> {
  const names = new Map<string, string>();
  for (const statement of root.descendantsOfType(['import_statement', 'import_from_statement'])) {
    if (!statement) continue;
    if (statement.type === 'import_statement') {
      for (const child of statement.namedChildren) {
        if (child?.type === 'dotted_name') names.set(child.text.split('.')[0]!, child.text.split('.')[0]!);
        if (child?.type === 'aliased_import')
          names.set(child.childForFieldName('alias')!.text, child.childForFieldName('name')!.text);
      }
    } else {
      const module = statement.childForFieldName('module_name')?.text;
      if (!module) continue;
      for (const child of statement.namedChildren.slice(1)) {
        if (child?.type === 'dotted_name') names.set(child.text, `${module}.${child.text}`);
        if (child?.type === 'aliased_import')
          names.set(child.childForFieldName('alias')!.text, `${module}.${child.childForFieldName('name')!.text}`);
      }
    }
  }
  // The modules every function can reach without an import of its own.
  for (const always of ['sys', 'gc', 'os', 'inspect', 'builtins']) if (!names.has(always)) names.set(always, always);
  return names;
}

function walk(node: Node, visit: (node: Node) => void): void {
  visit(node);
  for (const child of node.namedChildren) if (child) walk(child, visit);
}

/** The flags in one line for the developer and the model: `gc.get_objects (line 3), tb_frame (line 5)`. */
export function reachWords(found: readonly HarnessReach[]): string {
  return found.map((f) => `${f.what} (line ${f.line})`).join(', ');
}
