import { describe, expect, it } from 'vitest';
import { generateMutants, spread } from '../../source/engine/quality/mutants';
import { collectCandidates, incremented } from '../../source/engine/quality/mutation-operators';
import { parsePython } from '../../source/engine/python-source/parser';

const MODULE = `import math


def scale(values, factor=2, *, strict=True):
    """Scale values: 1 + 2 < 3 and not True."""
    total: int | None = 0
    result = []
    for v in values:
        if v is None or not strict:
            continue
        total += v * factor
        result.append(v // 3 - 1)
    assert total >= 0, f"negative {total + 1}"
    return result == [] and False


def other():
    return 1 + 1
`;

/**
 * Counted by hand, line by line. Untouched: the signature's defaults (not the body), the docstring,
 * the annotation `int | None`, the f-string's `{total + 1}`, the `for` line (no operator).
 */
const EXPECTED = [
  'line 6: total: int | None = 0 → pass',
  'line 6: 0 → 1',
  'line 7: result = [] → pass',
  'line 9: is → is not',
  'line 9: or → and',
  'line 9: not strict → strict',
  'line 10: continue → pass',
  'line 11: total += v * factor → pass',
  'line 11: += → -=',
  'line 11: * → /',
  'line 12: result.append(v // 3 - 1) → pass',
  'line 12: // → /',
  'line 12: 3 → 4',
  'line 12: - → +',
  'line 12: 1 → 2',
  'line 13: assert total >= 0, f"negative {total + … → pass',
  'line 13: >= → >',
  'line 13: 0 → 1',
  'line 14: return result == [] and False → return None',
  'line 14: == → !=',
  'line 14: and → or',
  'line 14: False → True',
];

async function candidatesOf(text: string, name: string) {
  const tree = await parsePython(text);
  const fn = tree.rootNode.namedChildren.find(
    (n) => n?.type === 'function_definition' && n.childForFieldName('name')?.text === name,
  )!;
  const found = collectCandidates(fn.childForFieldName('body')!, text).map((c) => `${c.from} → ${c.to}`);
  tree.delete();
  return found;
}

describe('generateMutants', () => {
  it('makes exactly the hand-counted mutants, in source order, with ids, lines and columns', async () => {
    const mutants = await generateMutants(MODULE, { qualname: 'scale' });
    expect(mutants.map((m) => m.description)).toEqual(EXPECTED);
    expect(mutants.map((m) => m.id)).toEqual(EXPECTED.map((_, i) => `m${i + 1}`));
    const perOperator: Record<string, number> = {};
    for (const m of mutants) perOperator[m.operator] = (perOperator[m.operator] ?? 0) + 1;
    expect(perOperator).toEqual({
      statement: 6,
      number: 4,
      comparison: 3,
      boolean: 2,
      negation: 1,
      augmented: 1,
      arithmetic: 3,
      return: 1,
      constant: 1,
    });
    const lt = mutants.find((m) => m.description === 'line 13: >= → >')!;
    expect([lt.line, lt.column]).toEqual([13, 18]);
  });

  it('changes one span inside the function body: the docstring and the rest of the module stay as they are', async () => {
    const mutants = await generateMutants(MODULE, { qualname: 'scale' });
    const bodyStart = MODULE.indexOf('    total: int');
    const bodyEnd = MODULE.indexOf('\n\n\ndef other');
    for (const m of mutants) {
      expect(m.text).toBe(MODULE.slice(0, m.start) + m.replacement + MODULE.slice(m.end));
      expect(m.start).toBeGreaterThanOrEqual(bodyStart);
      expect(m.end).toBeLessThanOrEqual(bodyEnd);
      expect(m.text).toContain('"""Scale values: 1 + 2 < 3 and not True."""');
      expect(m.text).toContain('def other():\n    return 1 + 1\n');
      if (m.description !== EXPECTED[15]) expect(m.text).toContain('f"negative {total + 1}"');
    }
    expect(mutants.find((m) => m.description === 'line 9: is → is not')!.text).toContain(
      'if v is not None or not strict:',
    );
  });

  it('drops a mutant that does not parse', async () => {
    // tree-sitter reads `0x1or y` as `0x1 or y`; `and` in its place makes the hex literal `0x1a`.
    const text = 'def f(y):\n    return 0x1or y\n';
    expect(await candidatesOf(text, 'f')).toEqual(['return 0x1or y → return None', 'or → and', '0x1 → 0x2']);
    const mutants = await generateMutants(text, { qualname: 'f' });
    expect(mutants.map((m) => m.description)).toEqual(['line 2: return 0x1or y → return None', 'line 2: 0x1 → 0x2']);
  });

  it('checks only the function when the module has a syntax error elsewhere', async () => {
    const text = 'def f(y):\n    return 0x1or y\n\n\ndef broken(:\n    pass\n';
    const mutants = await generateMutants(text, { qualname: 'f' });
    expect(mutants.map((m) => m.description)).toEqual(['line 2: return 0x1or y → return None', 'line 2: 0x1 → 0x2']);
  });

  it('drops a mutant whose module equals an earlier one', async () => {
    // Removing either `not` of `not not x` gives `not x`.
    const text = 'def f(x):\n    return not not x\n';
    expect(await candidatesOf(text, 'f')).toHaveLength(3);
    const mutants = await generateMutants(text, { qualname: 'f' });
    expect(mutants.map((m) => m.description)).toEqual([
      'line 2: return not not x → return None',
      'line 2: not not x → not x',
    ]);
  });

  it('edits at the right place after non-ASCII text (tree-sitter counts in UTF-16 units, like JavaScript)', async () => {
    const text = 'GREETING = "héllo 😀"\n\n\ndef f(x):\n    label = "😀😀"; return x < 1\n';
    const mutants = await generateMutants(text, { qualname: 'f' });
    const lt = mutants.find((m) => m.operator === 'comparison')!;
    expect(lt.text).toBe('GREETING = "héllo 😀"\n\n\ndef f(x):\n    label = "😀😀"; return x <= 1\n');
  });

  it('keeps every later line number when a removed statement or a returned value spans lines', async () => {
    const text = 'def f(a):\n    x = g(\n        a)\n    return (a +\n            1)\n\n\ndef after():\n    pass\n';
    const mutants = await generateMutants(text, { qualname: 'f' });
    const removed = mutants.find((m) => m.operator === 'statement')!;
    const returned = mutants.find((m) => m.operator === 'return')!;
    expect(removed.text).toBe('def f(a):\n    pass\n\n    return (a +\n            1)\n\n\ndef after():\n    pass\n');
    expect(returned.text).toBe('def f(a):\n    x = g(\n        a)\n    return (None\n)\n\n\ndef after():\n    pass\n');
    for (const m of mutants) expect(m.text.split('\n').length).toBe(text.split('\n').length);
  });

  it('never removes a yield (that would turn a generator into a function) nor a bare string', async () => {
    const text = 'def gen(xs):\n    "doc"\n    for x in xs:\n        yield x\n        "note"\n        print(x)\n';
    const mutants = await generateMutants(text, { qualname: 'gen' });
    expect(mutants.map((m) => m.description)).toEqual(['line 6: print(x) → pass']);
  });

  it('mutates a method picked by qualname and line', async () => {
    const text = 'class A:\n    def f(self):\n        return 1\n\n\nclass B:\n    def f(self):\n        return True\n';
    const mutants = await generateMutants(text, { qualname: 'B.f', startLine: 7 });
    expect(mutants.map((m) => m.description)).toEqual(['line 8: return True → return None', 'line 8: True → False']);
  });

  it('caps the count with an even, deterministic spread that keeps the original ids', async () => {
    const capped = await generateMutants(MODULE, { qualname: 'scale' }, { max: 5 });
    expect(capped.map((m) => m.id)).toEqual(['m1', 'm5', 'm9', 'm14', 'm18']);
    expect(spread([1, 2, 3], 10)).toEqual([1, 2, 3]);
  });
});

describe('incremented', () => {
  it('adds one in the literal’s own base', () => {
    expect(['0', '41', '1_000', '0x1F', '0xff', '0o17', '0b101', '1j', '10L'].map(incremented)).toEqual([
      '1',
      '42',
      '1001',
      '0x20',
      '0x100',
      '0o20',
      '0b110',
      undefined,
      undefined,
    ]);
  });
});
