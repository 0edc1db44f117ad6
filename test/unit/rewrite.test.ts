import { describe, expect, it } from 'vitest';
import { findFunction, functionParts, signatureAndDocstring } from '../../source/engine/python-source/function-parts';
import { parsePython } from '../../source/engine/python-source/parser';
import { decodeSource, encodeSource } from '../../source/engine/python-source/source-text';
import { blankFunction, instrumentFunction } from '../../source/engine/task/rewrite';

async function parts(text: string, qualname: string) {
  const tree = await parsePython(text);
  const definition = findFunction(tree, qualname);
  if (!definition) throw new Error(`no ${qualname}`);
  return functionParts(text, definition);
}

const MODULE = `import functools


def keep_me():
    return 1


class Box:
    @staticmethod
    @functools.lru_cache(maxsize=None)
    def area(
        width,
        height=2,
    ) -> int:  # the signature spans lines
        """Area of a box.

        Width times height.
        """
        result = width * height
        return result

    def one_liner(self, x): return x * 2

    def doc_only(self):
        "Only a docstring."


def after():
    return Box.area(1, 2)
`;

describe('blankFunction', () => {
  it('keeps an async generator one: a bare yield after the raise, so `async for` meets NotImplementedError, not a coroutine', async () => {
    const source =
      'async def ticks(n):\n    """Tick n times."""\n    for i in range(n):\n        yield i\n\n\nasync def once():\n    return 1\n';
    const blank = blankFunction(source, await parts(source, 'ticks'));
    expect(blank).toBe(
      'async def ticks(n):\n    """Tick n times."""\n    raise NotImplementedError\n    yield  # unreachable: keeps this an async generator\n\n\nasync def once():\n    return 1\n',
    );
    // A coroutine stays as before.
    expect(blankFunction(source, await parts(source, 'once'))).toContain(
      'async def once():\n    raise NotImplementedError\n',
    );
  });
  it('keeps decorators, a multi-line signature with its comment, the docstring, and the rest of the file', async () => {
    const p = await parts(MODULE, 'Box.area');
    const blank = blankFunction(MODULE, p);
    expect(blank).toContain(`    @staticmethod
    @functools.lru_cache(maxsize=None)
    def area(
        width,
        height=2,
    ) -> int:  # the signature spans lines
        """Area of a box.

        Width times height.
        """
        raise NotImplementedError

    def one_liner(self, x): return x * 2`);
    expect(blank).not.toContain('result = width * height');
    expect(blank.startsWith('import functools\n\n\ndef keep_me():\n    return 1\n')).toBe(true);
    expect(blank.endsWith('def after():\n    return Box.area(1, 2)\n')).toBe(true);
  });

  it('turns a one-line body into an indented block', async () => {
    const blank = blankFunction(MODULE, await parts(MODULE, 'Box.one_liner'));
    expect(blank).toContain('    def one_liner(self, x):\n        raise NotImplementedError\n\n    def doc_only');
  });

  it('gives a docstring-only function a body', async () => {
    const blank = blankFunction(MODULE, await parts(MODULE, 'Box.doc_only'));
    expect(blank).toContain(
      '    def doc_only(self):\n        "Only a docstring."\n        raise NotImplementedError\n',
    );
  });

  it('blanks a nested function by its <locals> qualname', async () => {
    const text = 'def outer():\n    def inner(a):\n        return a + 1\n    return inner\n';
    const blank = blankFunction(text, await parts(text, 'outer.<locals>.inner'));
    expect(blank).toBe('def outer():\n    def inner(a):\n        raise NotImplementedError\n    return inner\n');
  });

  it('handles async functions and tabs', async () => {
    const text = 'async def fetch(url):\n\tdata = await get(url)\n\treturn data\n';
    expect(blankFunction(text, await parts(text, 'fetch'))).toBe(
      'async def fetch(url):\n\traise NotImplementedError\n',
    );
  });
});

describe('instrumentFunction', () => {
  it('puts the probe on the line of a simple first statement, so line numbers do not move', async () => {
    const text = 'def stub(x):\n    """Doc."""\n    pass\n\n\ndef other():\n    return 2\n';
    const probed = instrumentFunction(text, await parts(text, 'stub'));
    expect(probed).toBe(
      'def stub(x):\n    """Doc."""\n    __import__("_tenet_probe").hit(); pass\n\n\ndef other():\n    return 2\n',
    );
    expect(probed.split('\n').length).toBe(text.split('\n').length);
  });

  it('adds a line before a compound first statement', async () => {
    const text = 'def f(x):\n    if x:\n        return 1\n    return 0\n';
    expect(instrumentFunction(text, await parts(text, 'f'))).toBe(
      'def f(x):\n    __import__("_tenet_probe").hit()\n    if x:\n        return 1\n    return 0\n',
    );
  });

  it('gives a docstring-only stub the probe as its body', async () => {
    const text = 'def f():\n    """Only doc."""\n';
    expect(instrumentFunction(text, await parts(text, 'f'))).toBe(
      'def f():\n    """Only doc."""\n    __import__("_tenet_probe").hit()\n',
    );
  });
});

describe('signatureAndDocstring', () => {
  it('is the prompt a developer would write: decorators, signature, docstring', async () => {
    const p = await parts(MODULE, 'Box.area');
    expect(signatureAndDocstring(MODULE, p)).toBe(
      '    @staticmethod\n    @functools.lru_cache(maxsize=None)\n    def area(\n        width,\n        height=2,\n    ) -> int:  # the signature spans lines\n        """Area of a box.\n\n        Width times height.\n        """\n',
    );
  });
});

describe('non-UTF-8 sources', () => {
  it('round-trips latin-1 bytes untouched outside the rewritten function', async () => {
    const bytes = Buffer.concat([
      Buffer.from('# -*- coding: latin-1 -*-\nNAME = "caf'),
      Buffer.from([0xe9]),
      Buffer.from('"\n\ndef f():\n    return NAME\n'),
    ]);
    const source = decodeSource(bytes);
    expect(source.encoding).toBe('latin1');
    const blank = blankFunction(source.text, await parts(source.text, 'f'));
    const written = encodeSource({ text: blank, encoding: source.encoding });
    expect(written.subarray(0, 40).equals(bytes.subarray(0, 40))).toBe(true);
    expect(written.toString('latin1')).toContain('def f():\n    raise NotImplementedError\n');
  });

  it('keeps UTF-8 text as UTF-8', () => {
    expect(decodeSource(Buffer.from('s = "é"\n')).encoding).toBe('utf8');
  });
});
