import { describe, expect, it } from 'vitest';
import { parseTargetSpec } from '../../source/engine/task/target-spec';

describe('parseTargetSpec', () => {
  it('takes Unicode identifiers, as Python does (issue 34, item 7: pkg/u.py::scalé was refused)', () => {
    expect(parseTargetSpec('pkg/u.py::scalé')).toEqual({ file: 'pkg/u.py', qualname: 'scalé' });
    expect(parseTargetSpec('pkg/u.py::Größe.wert@7')).toEqual({ file: 'pkg/u.py', qualname: 'Größe.wert', line: 7 });
  });

  it('still refuses what is no identifier', () => {
    expect(() => parseTargetSpec('pkg/u.py::1abc')).toThrow('is not a Python qualified name');
    expect(() => parseTargetSpec('pkg/u.py::a-b')).toThrow('is not a Python qualified name');
  });
});
