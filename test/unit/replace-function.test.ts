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
  it('drops a Markdown fence and common indentation', () => {
    expect(cleanCode('```python\n    def f():\n        return 1\n```')).toBe('def f():\n    return 1\n');
  });
});

describe('replaceFunction', () => {
  it('re-indents a column-0 def to the method, keeping the decorators it omits', async () => {
    const result = await replaceFunction(MODULE, 'Box.volume', 5, 'def volume(w, h, d):\n    """Volume."""\n    return w * h * d\n');
    expect(result.text).toBe(MODULE.replace('        raise NotImplementedError', '        return w * h * d'));
    expect([result.startLine, result.endLine]).toEqual([5, 8]);
  });

  it('keeps the original decorators the code omits, outermost, and the code’s own', async () => {
    const result = await replaceFunction(MODULE, 'Box.volume', 5, '@functools.cache\ndef volume(w, h, d):\n    return w * h * d');
    expect(result.text).toContain('    @staticmethod\n    @functools.cache\n    def volume(w, h, d):\n        """Volume."""\n        return w * h * d\n\n    def other');
  });

  it('does not re-indent the inside of multi-line strings', async () => {
    const result = await replaceFunction(MODULE, 'Box.volume', 5, 'def volume(w, h, d):\n    text = """a\nb"""\n    return text\n');
    expect(result.text).toContain('        """Volume."""\n        text = """a\nb"""\n        return text');
  });

  it('keeps the docstring the code leaves out, and the code’s own when it has one', async () => {
    const kept = await replaceFunction(MODULE, 'Box.volume', 5, 'def volume(w, h, d):\n    return 0\n');
    expect(kept.text).toContain('    def volume(w, h, d):\n        """Volume."""\n        return 0\n');
    const own = await replaceFunction(MODULE, 'Box.volume', 5, 'def volume(w, h, d):\n    """Mine."""\n    return 0\n');
    expect(own.text).toContain('    def volume(w, h, d):\n        """Mine."""\n        return 0\n');
  });

  it('adds the imports the code brings to the top of the module, once', async () => {
    const result = await replaceFunction(MODULE, 'Box.volume', 5, 'import math\nimport operator\ndef volume(w, h, d):\n    return operator.mul(w, h) * d\n');
    expect(result.addedImports).toEqual(['import operator']);
    expect(result.text.startsWith('import math\nimport operator\n\n\nclass Box:')).toBe(true);
    expect(result.startLine).toBe(6);
  });

  it('refuses code that does not parse, saying where', async () => {
    expect(await rejects('def volume(w, h, d:\n    return 1\n')).toMatch(/does not parse \(Python syntax error at line 1/);
  });

  it('refuses a different function, several functions, or other top-level code', async () => {
    expect(await rejects('def area(w, h):\n    return w * h\n')).toContain('defines `area`, but the function to implement is `volume`');
    expect(await rejects('def helper():\n    pass\n\ndef volume(w, h, d):\n    return helper()\n')).toContain('defines 2 functions (helper, volume)');
    expect(await rejects('X = 1\ndef volume(w, h, d):\n    return X\n')).toContain('Remove the other top-level code (expression statement)');
    expect(await rejects('   ')).toContain('empty');
  });
});
