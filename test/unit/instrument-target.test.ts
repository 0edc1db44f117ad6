import { describe, expect, it } from 'vitest';
import { findFunction, functionParts } from '../../source/engine/python-source/function-parts';
import { parsePython } from '../../source/engine/python-source/parser';
import { instrumentTarget } from '../../source/engine/task/rewrite';

async function instrumented(text: string, qualname: string) {
  const tree = await parsePython(text);
  const definition = findFunction(tree, qualname);
  if (!definition) throw new Error(`no ${qualname}`);
  const parts = functionParts(text, definition);
  tree.delete(); // instrumentTarget must live on the indices alone
  return instrumentTarget(text, parts);
}

const lines = (text: string) => text.split('\n');

// Issue 12, item 1: a generator's or coroutine's chain is taken at its call, so the probe wraps
// the function (a call probe) instead of sitting in a body that runs later. No line moves.
describe('THM instrumentation of a target whose call runs none of its body', () => {
  it('a plain function keeps the probe as its first statement', async () => {
    const { text } = await instrumented('def f(x):\n    return x\n', 'f');
    expect(text).toBe('def f(x):\n    __import__("_tenet_probe").hit(); return x\n');
  });

  it('a generator after a blank line: the call probe takes that line', async () => {
    const source = 'import os\n\ndef gen(n):\n    """Doc."""\n    yield n\n';
    const { text, note } = await instrumented(source, 'gen');
    expect(text).toBe('import os\n@__import__("_tenet_probe").calls(5)\ndef gen(n):\n    """Doc."""\n    yield n\n');
    expect(note).toBeUndefined();
  });

  it('a comment line above is free too, and keeps its comment', async () => {
    const source = 'class A:\n    # cells, row by row\n    def cells(self):\n        yield 1\n';
    const { text } = await instrumented(source, 'A.cells');
    expect(lines(text)[1]).toBe('    @__import__("_tenet_probe").calls(4)  # cells, row by row');
    expect(lines(text)).toHaveLength(lines(source).length);
  });

  it('a decorated coroutine: the probe goes around the innermost decorator', async () => {
    const source =
      'import functools\n@functools.wraps(\n    other,\n)\n@cache  # keep\nasync def fetch(key):\n    return key\n';
    const { text } = await instrumented(source, 'fetch');
    expect(text).toBe(
      'import functools\n@functools.wraps(\n    other,\n)\n@__import__("_tenet_probe").after(cache, 7)  # keep\nasync def fetch(key):\n    return key\n',
    );
  });

  it('no decorator and no free line: rebound at the end of the module', async () => {
    const source = 'class Grid:\n    def cells(self):\n        for c in self.all:\n            yield c\nx = 1';
    const { text } = await instrumented(source, 'Grid.cells');
    expect(text).toBe(`${source}\n__import__("_tenet_probe").rebind(globals(), "Grid.cells", 3)\n`);
  });

  it('a coding line above is not free', async () => {
    const source = '# -*- coding: latin-1 -*-\ndef gen():\n    yield 1\n';
    const { text } = await instrumented(source, 'gen');
    expect(lines(text)[0]).toBe('# -*- coding: latin-1 -*-');
    expect(text).toContain('.rebind(globals(), "gen", 3)');
  });

  it('a yield of a nested function or lambda does not make a generator', async () => {
    const source = 'def outer():\n    def inner():\n        yield 1\n    return inner\n';
    const { text } = await instrumented(source, 'outer');
    expect(text).toContain('__import__("_tenet_probe").hit()');
    expect(text).not.toMatch(/calls|after|rebind/);
  });

  it('a nested generator with no room keeps the body probe, and says so', async () => {
    const source = 'def outer():\n    x = 1\n    def inner():\n        yield x\n    return inner\n';
    const { text, note } = await instrumented(source, 'outer.<locals>.inner');
    expect(text).toContain('__import__("_tenet_probe").hit(); yield x');
    expect(note).toContain('recorded where its body first runs');
  });
});
