import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/fixtures';

/** Calls _tenet_probe.generated_name in a real interpreter on each (filename, qualname) pair. */
function generatedNames(pairs: [string, string | null][]): unknown {
  const code = [
    'import json, sys',
    'import _tenet_probe as probe',
    'pairs = json.loads(sys.stdin.read())',
    'print(json.dumps([probe.generated_name(f) if q is None else list(probe.generated_name(f, q)) for f, q in pairs]))',
  ].join('\n');
  const out = execFileSync(process.env.TENET_PYTHON ?? 'python3', ['-c', code], {
    input: JSON.stringify(pairs),
    env: { ...process.env, PYTHONPATH: join(ROOT, 'source', 'python') },
  });
  return JSON.parse(out.toString());
}

describe('names of code compiled at run time, without process-local counters', () => {
  it("drops networkx argmap's counters from the file and the function name", () => {
    expect(
      generatedNames([
        ["<class 'networkx.utils.decorators.argmap'> compilation 326", 'argmap_density_329'],
        ["<class 'networkx.utils.decorators.argmap'> compilation 12", 'argmap_density_7'],
      ]),
    ).toEqual([
      ["<class 'networkx.utils.decorators.argmap'> compilation", 'argmap_density'],
      ["<class 'networkx.utils.decorators.argmap'> compilation", 'argmap_density'],
    ]);
  });

  it("drops other generators' counters and ids (the decorator package, attrs, hex ids)", () => {
    expect(
      generatedNames([
        ['<decorator-gen-12>', null],
        ['<attrs generated init pkg.Point-2>', null],
        ['<generated 0x7f3a2c>', 'make_0x7f.<locals>.run_3'],
      ]),
    ).toEqual(['<decorator-gen>', '<attrs generated init pkg.Point>', ['<generated>', 'make_0x7f.<locals>.run']]);
  });

  it('keeps numbers that are part of a name, and real files as they are', () => {
    expect(
      generatedNames([
        ['<doctest pkg.mod.func[2]>', 'func'],
        ['<string>', '__create_fn__.<locals>.__init__'],
        ['<frozen importlib._bootstrap>', '_call_with_frames_removed'],
        ['/repo/pkg/mod.py', 'test_case_1'],
        ['<py3k shim>', 'v2'],
      ]),
    ).toEqual([
      ['<doctest pkg.mod.func[2]>', 'func'],
      ['<string>', '__create_fn__.<locals>.__init__'],
      ['<frozen importlib._bootstrap>', '_call_with_frames_removed'],
      ['/repo/pkg/mod.py', 'test_case_1'],
      ['<py3k shim>', 'v2'],
    ]);
  });
});
