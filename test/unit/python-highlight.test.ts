import { describe, expect, it } from 'vitest';
import { codeLines } from '../../source/ui/components/code-arguments';
import { lineText, type Seg } from '../../source/ui/components/lines';
import { highlightRows, loadPythonHighlighting } from '../../source/ui/components/python-highlight';

const colourOf = (rows: ReturnType<typeof highlightRows>, row: number, text: string) =>
  rows[row]!.find((seg) => seg.text.includes(text))?.color;

describe('Python highlighted from tree-sitter-python’s highlights.scm', () => {
  it('colours every row of a multi-line string as a string, and match/case as keywords only where they are', async () => {
    await loadPythonHighlighting();
    const code = [
      'def f(x):',
      '    """First row.',
      '    if this were code, return',
      '    """',
      '    match = x  # a name here',
      '    match x:',
      '        case 1:',
      '            return None',
      '    s = "héllo, 日本"  # after wide text',
    ].join('\n');
    const rows = highlightRows(code);
    expect(colourOf(rows, 0, 'def')).toBe('magenta');
    // The string's middle row is a string, not an `if` and a `return`.
    expect(rows[2]!.filter((seg) => seg.text.trim()).every((seg) => seg.color === 'green')).toBe(true);
    expect(rows[3]!.filter((seg) => seg.text.trim()).every((seg) => seg.color === 'green')).toBe(true);
    expect(colourOf(rows, 4, 'match')).toBeUndefined(); // a variable called match
    expect(rows[4]!.find((seg) => seg.text.includes('# a name'))?.dim).toBe(true);
    expect(colourOf(rows, 5, 'match')).toBe('magenta');
    expect(colourOf(rows, 6, 'case')).toBe('magenta');
    expect(colourOf(rows, 7, 'None')).toBe('magenta');
    // Columns counted in characters, not bytes: the comment after non-ASCII text starts where it does.
    expect(rows[8]!.find((seg) => seg.dim)?.text).toBe('# after wide text');
    expect(rows.map((row) => row.map((seg) => seg.text).join('')).join('\n')).toBe(code);
  });
});

describe('codeLines (a step pause’s code)', () => {
  it('keeps the colours where a long row wraps, and colours the rows of a string that runs over them', async () => {
    await loadPythonHighlighting();
    const code = `def f():\n    text = """one\n    two words that make this row longer than the twenty-eight columns it has\n    """\n    return text`;
    const rows = codeLines(code, 30);
    const text = rows.map(lineText);
    // Wrapped under its own indentation and two more, as before.
    expect(text[2]).toBe('      two words that make this');
    expect(text[3]!.startsWith('        ')).toBe(true);
    // Every piece of the string's rows, wrapped ones included, is a string.
    for (const row of rows.slice(2, -1))
      for (const seg of (row as Seg[]).slice(1).filter((s) => s.text.trim())) expect(seg.color).toBe('green');
    expect((rows.at(-1) as Seg[]).find((s) => s.text === 'return')?.color).toBe('magenta');
  });
});
