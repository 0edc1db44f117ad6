import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mayCall, unpackCalls } from '../../source/engine/index/calls';
import { indexSource } from '../../source/engine/index/parse-file';
import { FIXTURES } from '../helpers/fixtures';

const GEO = join(FIXTURES, 'toolbox', 'geo');
const index = (name: string) => indexSource(`geo/${name}`, readFileSync(join(GEO, name)));

describe('the index of one module', () => {
  it('names classes and methods like __qualname__, with bases, decorators, docstrings and lines', async () => {
    const file = await index('shapes.py');
    expect(file.classes.map((c) => [c.qualname, c.bases, c.start, c.end])).toEqual([
      ['Shape', [], 5, 23],
      ['Shape.Meta', [], 8, 9],
      ['Circle', ['Shape'], 26, 36],
      ['Square', ['Shape'], 39, 49],
    ]);
    const byName = new Map(file.functions.map((f) => [f.qualname, f]));
    expect([...byName.keys()]).toEqual([
      'Shape.__init__',
      'Shape.describe',
      'Shape.area',
      'Shape.unit',
      'Circle.__init__',
      'Circle.area',
      'Circle.describe',
      'Square.__init__',
      'Square.area',
      'Square.label',
      'area',
      'total_area',
    ]);
    expect(byName.get('Circle.area')).toMatchObject({
      className: 'Circle',
      decorators: ['functools.cache'],
      params: '(self)',
      start: 31,
      defLine: 32,
      end: 33,
    });
    expect(byName.get('Shape.describe')).toMatchObject({
      docstring: 'A one-line description of the shape.',
      returns: null,
    });
    expect(byName.get('area')).toMatchObject({
      className: null,
      docstring: 'Area of a shape, or 0 for None.',
      params: '(shape)',
    });
  });

  it('records call sites with their receiver and enclosing function', async () => {
    const file = await index('shapes.py');
    const calls = unpackCalls(file.calls, file.functions).map(
      (c) => `${c.enclosing}: ${c.receiver}/${c.receiverText}.${c.name}@${c.line}`,
    );
    expect(calls).toContain('Circle.__init__: super/super().__init__@28');
    expect(calls).toContain('Shape.describe: self/self.area@16');
    expect(calls).toContain('total_area: none/.area@61');
    expect(calls).toContain('total_area: none/.sum@61');
    expect(calls).toContain('Square.label: other/self.describe().upper@49');
  });

  it('packs call sites into the entry itself, decodable by name without the others', async () => {
    const file = await indexSource(
      'm.py',
      Buffer.from(
        [
          'def outer(x):',
          '    def inner():',
          '        return helper(x)',
          '    return (build(x)',
          '            .strip()',
          '            .lower())',
          '',
          'résumé(1)',
          'obj.attr.méthode(2)',
          'fs[0](3)',
          'f(x)(4)',
          '',
        ].join('\n'),
      ),
    );
    expect(file.calls.data).toBeInstanceOf(Int32Array);
    const all = unpackCalls(file.calls, file.functions).map(
      (c) => `${c.enclosing}: ${c.receiver}/${c.receiverText}.${c.name}@${c.line}:${c.column}`,
    );
    expect(all).toEqual([
      'outer.<locals>.inner: none/.helper@3:15',
      'outer: none/.build@4:12',
      'outer: other/build(x).strip@5:13',
      'outer: other/build(x) .strip().lower@6:13',
      'null: none/.résumé@8:0',
      'null: other/obj.attr.méthode@9:9',
      'null: none/.f@11:0',
    ]);
    expect(unpackCalls(file.calls, file.functions, ['strip', 'nope']).map((c) => c.line)).toEqual([5]);
    expect(unpackCalls(file.calls, file.functions, ['nope'])).toEqual([]);
    expect([mayCall(file.calls, 'helper'), mayCall(file.calls, 'help'), mayCall(file.calls, 'obj.attr')]).toEqual([
      true,
      false,
      true,
    ]);
  });

  it('reads imports: aliases, relative levels, and whether they are at module level', async () => {
    const init = await index('__init__.py');
    expect(init.imports.map((i) => [i.module, i.level, i.names, i.topLevel])).toEqual([
      ['geo.shapes', 0, [{ name: 'area', alias: 'shape_area' }], true],
      [
        'shapes',
        1,
        [
          { name: 'Circle', alias: null },
          { name: 'Shape', alias: null },
        ],
        true,
      ],
    ]);
    const report = await index('report.py');
    expect(report.imports[0]).toMatchObject({
      module: 'geo.shapes',
      isFrom: false,
      moduleAlias: 'gs',
      text: 'import geo.shapes as gs',
    });
  });

  it('indexes what parses in a file with a syntax error, and says so', async () => {
    const file = await index('broken.py');
    expect(file.hasErrors).toBe(true);
    expect(file.functions.map((f) => f.qualname)).toContain('half_area');
    expect(unpackCalls(file.calls, file.functions).some((c) => c.enclosing === 'half_area' && c.name === 'area')).toBe(
      true,
    );
  });

  it('reads a non-UTF-8 (latin-1) module', async () => {
    const file = await index('legacy.py');
    expect(file.functions.map((f) => [f.qualname, f.docstring])).toEqual([['legacy_area', 'Area, the old way ©.']]);
  });
});
