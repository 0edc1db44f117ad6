import { sampleConfig } from '../ui/helpers';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../source/engine/events';
import {
  asPlaced,
  functionIn,
  startingFunction,
  startingFunctionIn,
  submissionDiffs,
} from '../../source/engine/session/page-diffs';
import { ROOT } from '../helpers/fixtures';

const demo = readFileSync(join(ROOT, 'sessions', 'demo', 'events.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as EngineEvent);

const submission = (code: string, ok = true): EngineEvent => ({ type: 'submission', code, ok, message: '' });

describe("the session page's submission diffs", () => {
  it('finds the stub the agent started from in the task prompt (the demo: signature, docstring, raise)', () => {
    const stub = startingFunction(demo)!;
    expect(stub.split('\n')[0]).toBe('def tax_for(amount, region, category="standard"):');
    expect(stub.split('\n').at(-1)).toBe('    raise NotImplementedError');
    expect(stub).not.toContain('def gross');
  });

  it('compares the first submission with the stub and each later one with the one before', () => {
    const diffs = submissionDiffs(demo);
    const [first, second] = Object.values(diffs);
    expect(first).toMatchObject({ against: 'stub', number: 1 });
    expect(first!.hunks.flatMap((h) => h.lines)).toContain('-    raise NotImplementedError');
    expect(second).toMatchObject({ against: 'previous submission', number: 2, added: 1, removed: 1 });
    expect(second!.hunks.flatMap((h) => h.lines).filter((l) => /^[+-]/.test(l))).toEqual([
      '-        rates = RATES[region]',
      '+        rates = RATES[region.upper()]',
    ]);
  });

  it('a rejected submission is compared with what stayed in place, and is not the next one’s base', () => {
    const start: EngineEvent = {
      type: 'session.start',
      sessionId: 's',
      target: 'm.py::f',
      mode: 'blank',
      strategy: 'tenet',
      model: 'x',
      modelLabel: 'x',
      provider: 'x',
      repo: '/r',
      config: sampleConfig(),
    };
    const events = [
      start,
      submission('def f():\n    return 1\n'),
      submission('def f(:\n', false),
      submission('def f():\n    return 2\n'),
    ];
    const diffs = submissionDiffs(events);
    expect(diffs[1]!.against).toBe('unknown');
    expect(diffs[2]!.hunks.flatMap((h) => h.lines)).toContain('-    return 1');
    expect(diffs[3]!.hunks.flatMap((h) => h.lines).filter((l) => /^[+-]/.test(l))).toEqual([
      '-    return 1',
      '+    return 2',
    ]);
  });

  it('cuts a function with a signature over several lines and its decorators out of a module', () => {
    const module = [
      'import x',
      '',
      '@cache',
      'def f(',
      '    a,',
      '    b,',
      '):',
      '    """Doc."""',
      '',
      '    return a',
      '',
      '',
      'def g():',
      '    pass',
    ].join('\n');
    expect(functionIn(module, 'f')).toBe(
      ['@cache', 'def f(', '    a,', '    b,', '):', '    """Doc."""', '', '    return a'].join('\n'),
    );
    expect(functionIn(module, 'h')).toBeUndefined();
  });

  it('finds the function of a target named with @LINE (one of a getter and setter) in the module', () => {
    const module = ['class C:', '    @property', '    def area(self):', '        return self._a'].join('\n');
    const prompt = `Signature and docstring:\n\n\`\`\`python\ndef area(self):\n\`\`\`\n\nThe module:\n\n\`\`\`python\n${module}\n\`\`\``;
    const found = startingFunctionIn('m.py::C.area@2', [{ role: 'user', content: prompt }]);
    // At column 0, as the agent submits a method (see the next case).
    expect(found).toBe(['@property', 'def area(self):', '    return self._a'].join('\n'));
  });

  it("a method's first submission, at column 0, changes only its body: the method cut out of its class is moved left to match", () => {
    const module = [
      'class Invoice:',
      '    def total(self):',
      '        """The sum of the lines."""',
      '        raise NotImplementedError',
      '',
      '    def tax(self):',
      '        return 0',
    ].join('\n');
    const prompt = `Signature and docstring:\n\n\`\`\`python\ndef total(self):\n\`\`\`\n\nThe module:\n\n\`\`\`python\n${module}\n\`\`\``;
    const start: EngineEvent = {
      type: 'session.start',
      sessionId: 's',
      target: 'm.py::Invoice.total',
      mode: 'stub',
      strategy: 'tenet',
      model: 'x',
      modelLabel: 'x',
      provider: 'x',
      repo: '/r',
      config: sampleConfig(),
    };
    const request: EngineEvent = {
      type: 'model.request',
      round: 1,
      messages: 1,
      tools: [],
      newMessages: [{ role: 'user', content: prompt }],
    };
    // The agent's submission at column 0, and a later one indented as in the class: both line up.
    const events = [
      start,
      request,
      submission('def total(self):\n    return sum(self.lines)\n'),
      submission('    def total(self):\n        return sum(self.lines) or 0\n'),
    ];
    const diffs = submissionDiffs(events);
    expect(diffs[2]!.hunks.flatMap((h) => h.lines).filter((l) => /^[+-]/.test(l))).toEqual([
      '-    raise NotImplementedError',
      '+    return sum(self.lines)',
    ]);
    expect(diffs[3]!.hunks.flatMap((h) => h.lines).filter((l) => /^[+-]/.test(l))).toEqual([
      '-    return sum(self.lines)',
      '+    return sum(self.lines) or 0',
    ]);
  });

  it("a first submission without the docstring is not shown deleting the stub's: tenet keeps it in place", () => {
    const [first] = Object.values(submissionDiffs(demo));
    const lines = first!.hunks.flatMap((h) => h.lines);
    // The demo's first submission has no docstring; only the stub's body goes.
    expect(lines.filter((l) => l.startsWith('-'))).toEqual(['-    raise NotImplementedError']);
    expect(lines).toContain(
      '     """Sales tax due on `amount` in `region` for a product `category`, as money (Decimal, cents).',
    );
    expect(lines).toContain('     give negative tax.');
    expect(first!.removed).toBe(1);
  });
});

describe('a submission as tenet puts it in place', () => {
  const stub = ['def f(x):', '    """Doc.', '', '    More."""', '    raise NotImplementedError'].join('\n');

  it('keeps the docstring already there when the submission has none, at the submission’s indentation', () => {
    expect(asPlaced('def f(x):\n    return x\n', stub, 'f')).toBe(
      ['def f(x):', '    """Doc.', '', '    More."""', '    return x', ''].join('\n'),
    );
    // Two-space bodies, a signature over lines with a default that holds a colon, a helper first.
    const submitted = [
      'def helper():',
      '  pass',
      '',
      'def f(',
      '  x={"a": 1},',
      ') -> dict[str, int]:',
      '  # the body',
      '  return x',
    ].join('\n');
    expect(asPlaced(submitted, stub, 'f').split('\n').slice(5)).toEqual([
      ') -> dict[str, int]:',
      '  # the body',
      '  """Doc.',
      '',
      '  More."""',
      '  return x',
    ]);
    // A single-line docstring, single quotes.
    expect(asPlaced('def f(x):\n    return x', "def f(x):\n    'Doc.'\n    raise NotImplementedError", 'f')).toBe(
      "def f(x):\n    'Doc.'\n    return x",
    );
  });

  it('leaves a submission alone that has a docstring of its own, or a body on the def line, or when there is none to keep', () => {
    const own = 'def f(x):\n    r"""Its own."""\n    return x\n';
    expect(asPlaced(own, stub, 'f')).toBe(own);
    expect(asPlaced('def f(x): return x', stub, 'f')).toBe('def f(x): return x');
    expect(asPlaced('def f(x):\n    return x', 'def f(x):\n    raise NotImplementedError', 'f')).toBe(
      'def f(x):\n    return x',
    );
    expect(asPlaced('def f(x):\n    return x', undefined, 'f')).toBe('def f(x):\n    return x');
  });
});
