import { describe, expect, it } from 'vitest';
import { importErrorSite } from '../../source/engine/thm/import-error-site';

const ROOTS = ['/work', '/tmp/tenet-copy-1a2b'];

describe('importErrorSite', () => {
  it('a missing module is installed, not fixed: no line', () => {
    expect(
      importErrorSite(
        "ModuleNotFoundError: No module named 'x'",
        "tests/test_a.py:1: in <module>\n    import x\nE   ModuleNotFoundError: No module named 'x'",
        ROOTS,
      ),
    ).toEqual({ kind: 'missing-module' });
  });

  it("a syntax error is where Python's File line puts it, in the workspace as the sandbox or the folder names it", () => {
    const native = [
      'Traceback (most recent call last):',
      '  File "/usr/lib/python3.11/importlib/__init__.py", line 126, in import_module',
      '  File "/work/tests/test_u.py", line 1, in <module>',
      '    from pkg.units import f',
      '  File "/work/pkg/units.py", line 2',
      '    def f(x)',
      '            ^',
      "SyntaxError: expected ':'",
    ].join('\n');
    expect(importErrorSite("SyntaxError: expected ':'", native, ROOTS)).toEqual({
      kind: 'syntax-error',
      at: 'pkg/units.py:2',
    });
    const short = [
      '/usr/lib/python3.11/ast.py:50: in parse',
      '    return compile(source, filename, mode, flags,',
      'E     File "/tmp/tenet-copy-1a2b/tests/test_d.py", line 3',
      'E       assert (1 + 1) == 2)',
      'E                          ^',
      "E   SyntaxError: unmatched ')'",
    ].join('\n');
    expect(importErrorSite("SyntaxError: unmatched ')'", short, ROOTS)).toEqual({
      kind: 'syntax-error',
      at: 'tests/test_d.py:3',
    });
    expect(
      importErrorSite(
        'IndentationError: unexpected indent',
        '  File "/usr/lib/python3.11/site-packages/lib/m.py", line 4\nIndentationError: unexpected indent',
        ROOTS,
      ),
    ).toEqual({ kind: 'syntax-error' });
  });

  it('another error is at its innermost frame inside the workspace', () => {
    const native = [
      '  File "/work/tests/test_c.py", line 1, in <module>',
      '  File "/work/pkg/config.py", line 4, in <module>',
      '    X = S["unit"]',
      '  File "/usr/lib/python3.11/site-packages/lib/x.py", line 9, in get',
      "KeyError: 'unit'",
    ].join('\n');
    expect(importErrorSite("KeyError: 'unit'", native, ROOTS)).toEqual({ kind: 'error', at: 'pkg/config.py:4' });
    const short = [
      'tests/test_c.py:1: in <module>',
      '    from pkg.config import X',
      'pkg/config.py:4: in <module>',
      '    X = S["unit"]',
      "E   KeyError: 'unit'",
    ].join('\n');
    expect(importErrorSite("KeyError: 'unit'", short, ROOTS)).toEqual({ kind: 'error', at: 'pkg/config.py:4' });
    expect(importErrorSite('RuntimeError: no', '../../usr/lib/x.py:3: in f\nE   RuntimeError: no', ROOTS)).toEqual({
      kind: 'error',
    });
  });
});
