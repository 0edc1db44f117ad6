import { describe, expect, it } from 'vitest';
import { cleanCode, RejectedCode, replaceFunction } from '../../source/engine/task/replace-function';

const MODULE = `import math


class Box:
    @staticmethod
    def volume(w, h, d):
        """Volume."""
        raise NotImplementedError

    def other(self):
        return 1
`;

const rejects = async (code: string): Promise<string> => {
  try {
    await replaceFunction(MODULE, 'Box.volume', 5, code);
  } catch (error) {
    if (error instanceof RejectedCode) return error.message;
    throw error;
  }
  throw new Error('accepted');
};

describe('cleanCode', () => {
  it('drops a Markdown fence and common indentation', async () => {
    expect(await cleanCode('```python\n    def f():\n        return 1\n```')).toBe('def f():\n    return 1\n');
  });

  it('moves code by its first statement’s indentation, a docstring with it, and leaves the content of a string value as written', async () => {
    const code =
      '    # a comment left of the code\n    def f():\n        """Doc.\n\n        More.\n        """\n        return """\nat 0\n            at 12\n"""\n';
    expect(await cleanCode(code)).toBe(
      '# a comment left of the code\ndef f():\n    """Doc.\n\n    More.\n    """\n    return """\nat 0\n            at 12\n"""\n',
    );
  });
});

describe('replaceFunction', () => {
  it('re-indents a column-0 def to the method, keeping the decorators it omits', async () => {
    const result = await replaceFunction(
      MODULE,
      'Box.volume',
      5,
      'def volume(w, h, d):\n    """Volume."""\n    return w * h * d\n',
    );
    expect(result.text).toBe(MODULE.replace('        raise NotImplementedError', '        return w * h * d'));
    expect([result.startLine, result.endLine]).toEqual([5, 8]);
  });

  it('keeps the original decorators the code omits, outermost, and the code’s own', async () => {
    const result = await replaceFunction(
      MODULE,
      'Box.volume',
      5,
      '@functools.cache\ndef volume(w, h, d):\n    return w * h * d',
    );
    expect(result.text).toContain(
      '    @staticmethod\n    @functools.cache\n    def volume(w, h, d):\n        """Volume."""\n        return w * h * d\n\n    def other',
    );
  });

  it('does not re-indent the inside of multi-line strings', async () => {
    const result = await replaceFunction(
      MODULE,
      'Box.volume',
      5,
      'def volume(w, h, d):\n    text = """a\nb"""\n    return text\n',
    );
    expect(result.text).toContain('        """Volume."""\n        text = """a\nb"""\n        return text');
  });

  it('keeps the docstring the code leaves out, and the code’s own when it has one', async () => {
    const kept = await replaceFunction(MODULE, 'Box.volume', 5, 'def volume(w, h, d):\n    return 0\n');
    expect(kept.text).toContain('    def volume(w, h, d):\n        """Volume."""\n        return 0\n');
    const own = await replaceFunction(MODULE, 'Box.volume', 5, 'def volume(w, h, d):\n    """Mine."""\n    return 0\n');
    expect(own.text).toContain('    def volume(w, h, d):\n        """Mine."""\n        return 0\n');
  });

  it('adds the imports the code brings to the top of the module, once', async () => {
    const result = await replaceFunction(
      MODULE,
      'Box.volume',
      5,
      'import math\nimport operator\ndef volume(w, h, d):\n    return operator.mul(w, h) * d\n',
    );
    expect(result.addedImports).toEqual(['import operator']);
    expect(result.text.startsWith('import math\nimport operator\n\n\nclass Box:')).toBe(true);
    expect(result.startLine).toBe(6);
  });

  it('refuses code that does not parse, saying where', async () => {
    expect(await rejects('def volume(w, h, d:\n    return 1\n')).toMatch(
      /does not parse \(Python syntax error at line 1/,
    );
  });

  it('refuses a different function, several functions, or other top-level code', async () => {
    expect(await rejects('def area(w, h):\n    return w * h\n')).toContain(
      'defines `area`, but the function to implement is `volume`',
    );
    expect(await rejects('def helper():\n    pass\n\ndef volume(w, h, d):\n    return helper()\n')).toContain(
      'defines 2 functions (helper, volume)',
    );
    expect(await rejects('X = 1\ndef volume(w, h, d):\n    return X\n')).toContain(
      'Remove the other top-level code (expression statement)',
    );
    expect(await rejects('   ')).toContain('empty');
  });
});

/** A method and a nested function whose docstrings span lines, and strings that are values: the data must not move. */
const DOCUMENTED = `import textwrap


class Registry:
    def crawl(self):
        """
        Crawl all added resources.

        Returns a new registry.
        """
        query = textwrap.dedent("""
            SELECT *
            FROM t
        """)
        raw = """
line at column 0
"""

        def visit(node):
            """
            Visit one node.
            """
            return node

        return visit(query + raw)

    def other(self):
        return 1
`;

/** The lines of DOCUMENTED from `start` to `end` as a model writes them: code moved left by `indent`, string values as they are. */
function asModelWrites(start: string, end: string, indent: string): string {
  const text = DOCUMENTED.slice(DOCUMENTED.indexOf(start), DOCUMENTED.indexOf(end));
  const data = new Set(['            SELECT *', '            FROM t', '        """)', 'line at column 0', '"""']);
  return text
    .split('\n')
    .map((line) => (data.has(line) || !line.startsWith(indent) ? line : line.slice(indent.length)))
    .join('\n');
}

describe('replaceFunction and multi-line strings', () => {
  const crawl = () => asModelWrites('    def crawl', '\n    def other', '    ');

  it('a method submitted unchanged at column 0 leaves the module unchanged: its docstring moves with the code, string values do not', async () => {
    const code = crawl();
    expect(code).toMatch(
      /^def crawl\(self\):\n {4}"""\n {4}Crawl all added resources\.\n\n {4}Returns a new registry\.\n {4}"""\n/,
    );
    expect((await replaceFunction(DOCUMENTED, 'Registry.crawl', 5, code)).text).toBe(DOCUMENTED);
  });

  it('a nested function submitted unchanged at column 0 leaves the module unchanged', async () => {
    const code = asModelWrites('        def visit', '\n\n        return visit', '        ');
    expect(code.startsWith('def visit(node):\n    """\n    Visit one node.\n    """\n')).toBe(true);
    expect((await replaceFunction(DOCUMENTED, 'Registry.crawl.<locals>.visit', 19, code)).text).toBe(DOCUMENTED);
  });

  it('a method submitted as it sits in its class (indented, in a fence) leaves the module unchanged', async () => {
    const code = DOCUMENTED.slice(DOCUMENTED.indexOf('    def crawl'), DOCUMENTED.indexOf('\n    def other'));
    expect((await replaceFunction(DOCUMENTED, 'Registry.crawl', 5, `\`\`\`python\n${code}\n\`\`\``)).text).toBe(
      DOCUMENTED,
    );
  });

  it('a submission indented with tabs, or by two columns, has its docstring moved with its body', async () => {
    const tabbed = DOCUMENTED.replace(/^( {4})+/gm, (spaces) => '\t'.repeat(spaces.length / 4));
    const inClass = tabbed.slice(tabbed.indexOf('\tdef crawl'), tabbed.indexOf('\n\tdef other'));
    expect((await replaceFunction(tabbed, 'Registry.crawl', 5, inClass)).text).toBe(tabbed);
    const narrow = 'def crawl(self):\n  """\n  Crawl.\n\n  Returns.\n  """\n  return """\n  data\n"""\n';
    const placed = await replaceFunction(DOCUMENTED, 'Registry.crawl', 5, narrow);
    expect(placed.text).toContain(
      '    def crawl(self):\n      """\n      Crawl.\n\n      Returns.\n      """\n      return """\n  data\n"""\n\n    def other',
    );
  });

  it('keeps the developer’s docstring, moved to the body of a submission that leaves it out (stub mode)', async () => {
    const withoutDoc = crawl().replace(
      '    """\n    Crawl all added resources.\n\n    Returns a new registry.\n    """\n',
      '',
    );
    expect((await replaceFunction(DOCUMENTED, 'Registry.crawl', 5, withoutDoc)).text).toBe(DOCUMENTED);
    const narrow = await replaceFunction(DOCUMENTED, 'Registry.crawl', 5, 'def crawl(self):\n  return 1\n');
    expect(narrow.text).toContain(
      '    def crawl(self):\n      """\n      Crawl all added resources.\n\n      Returns a new registry.\n      """\n      return 1\n\n    def other',
    );
  });
});
