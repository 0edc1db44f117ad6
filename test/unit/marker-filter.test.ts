import { describe, expect, it } from 'vitest';
import { MarkerFilter } from '../../source/engine/tools/debugger/marker-filter';

const MARKER = '__tenet_done_c87021d4955d__';
const feed = (chunks: string[]) => {
  const filter = new MarkerFilter(MARKER);
  return chunks.map((c) => filter.push(c)).join('') + filter.flush();
};

describe('the end-of-command marker filter', () => {
  const whole = `hi from shop\n${MARKER}:0\n`;

  it('takes the marker line out of one chunk', () => {
    expect(feed([whole])).toBe('hi from shop\n');
  });

  it('takes it out however the chunks split it, at every position', () => {
    for (let i = 1; i < whole.length; i++) {
      expect(feed([whole.slice(0, i), whole.slice(i)])).toBe('hi from shop\n');
    }
    expect(feed([...whole])).toBe('hi from shop\n');
  });

  it('keeps text that only looks like the start of the marker, and what follows the status line', () => {
    expect(feed(['a_', '_b\n'])).toBe('a__b\n');
    expect(feed(['x\n__tenet', '_other'])).toBe('x\n__tenet_other');
    expect(feed([`one\n${MARKER}:1\ntwo${MARKER}:0\n`])).toBe('one\ntwo');
  });

  it("never holds back the program's own newline: held, it would come out after the other stream's next line", () => {
    const filter = new MarkerFilter(MARKER);
    expect(filter.push('out 0\n')).toBe('out 0\n');
    expect(filter.push(`${MARKER}:0\n`)).toBe('');
    expect(filter.status).toBe('0');
  });

  it('holds an unfinished status line until its end arrives', () => {
    const filter = new MarkerFilter(MARKER);
    expect(filter.push(`out\n${MARKER}:1`)).toBe('out\n');
    expect(filter.flush()).toBe('');
    expect(filter.push('27\n(Pdb) ')).toBe('(Pdb) ');
  });
});
