import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TenetError } from '../../source/engine/errors';
import { resolveTarget, TargetInBrokenFile } from '../../source/engine/task/resolve-target';
import { parseTargetSpec } from '../../source/engine/task/target-spec';

describe('parseTargetSpec', () => {
  it('reads file::qualname, pytest-style Class::method, and @LINE', () => {
    expect(parseTargetSpec('pkg/mod.py::func')).toEqual({ file: 'pkg/mod.py', qualname: 'func' });
    expect(parseTargetSpec('pkg/mod.py::Cls::meth')).toEqual({ file: 'pkg/mod.py', qualname: 'Cls.meth' });
    expect(parseTargetSpec('m.py::outer.<locals>.inner@12')).toEqual({
      file: 'm.py',
      qualname: 'outer.<locals>.inner',
      line: 12,
    });
  });

  it('rejects malformed names with the expected form', () => {
    expect(() => parseTargetSpec('pkg/mod.py')).toThrow(/path\/to\/module\.py::function/);
    expect(() => parseTargetSpec('pkg/mod.txt::f')).toThrow(/not a Python file/);
    expect(() => parseTargetSpec('m.py::1bad')).toThrow(/not a Python qualified name/);
  });
});

describe('resolveTarget', () => {
  let repo: string;
  beforeAll(() => {
    repo = mkdtempSync(join(tmpdir(), 'tenet-resolve-'));
    mkdirSync(join(repo, 'pkg'));
    writeFileSync(
      join(repo, 'pkg', 'geometry.py'),
      [
        'class Shape:',
        '    @property',
        '    def area(self):',
        '        return 0',
        '    @area.setter',
        '    def area(self, value):',
        '        pass',
        '    def perimeter(self):',
        '        return 0',
        '',
        'def scale(shape, factor):',
        '    def inner():',
        '        return factor',
        '    return inner',
        '',
        'if True:',
        '    def conditional():',
        '        return 1',
        '',
        'def make_scaler(factor):',
        '    def scale(x):',
        '        return x * factor',
        '    return scale',
        '',
        'def twice(flag):',
        '    if flag:',
        '        def step():',
        '            return 1',
        '    else:',
        '        def step():',
        '            return 2',
        '    return step',
        '',
      ].join('\n'),
    );
  });
  afterAll(() => rmSync(repo, { recursive: true, force: true }));

  const fails = async (spec: string): Promise<TenetError> => {
    try {
      await resolveTarget(repo, spec);
    } catch (error) {
      if (error instanceof TenetError) return error;
      throw error;
    }
    throw new Error(`resolved ${spec}`);
  };

  it('finds functions, methods, nested and conditional definitions', async () => {
    expect((await resolveTarget(repo, 'pkg/geometry.py::Shape.perimeter')).startLine).toBe(8);
    expect((await resolveTarget(repo, 'pkg/geometry.py::scale.<locals>.inner')).id).toBe(
      'pkg/geometry.py::scale.<locals>.inner',
    );
    expect((await resolveTarget(repo, 'pkg/geometry.py::conditional')).startLine).toBe(17);
    expect((await resolveTarget(repo, `${join(repo, 'pkg/geometry.py')}::scale`)).file).toBe('pkg/geometry.py');
  });

  it("a nested function's short form (its qualname without .<locals>) names it when it matches one definition", async () => {
    const scale = await resolveTarget(repo, 'pkg/geometry.py::make_scaler.scale');
    expect(scale).toMatchObject({
      qualname: 'make_scaler.<locals>.scale',
      id: 'pkg/geometry.py::make_scaler.<locals>.scale',
      startLine: 21,
      endLine: 22,
    });
    expect((await resolveTarget(repo, 'pkg/geometry.py::make_scaler.scale@22')).id).toBe(
      'pkg/geometry.py::make_scaler.<locals>.scale',
    );
    // Several: the usual ambiguity, by their full names, and @LINE picks one.
    const several = await fails('pkg/geometry.py::twice.step');
    expect(several.message).toBe(
      [
        'Target pkg/geometry.py::twice.step is ambiguous: 2 definitions have that name.',
        '  Definitions:',
        '    pkg/geometry.py::twice.<locals>.step@27',
        '    pkg/geometry.py::twice.<locals>.step@30',
      ].join('\n'),
    );
    expect(several.fix).toBe('add @LINE to pick one, e.g. --target pkg/geometry.py::twice.<locals>.step@27');
    expect((await resolveTarget(repo, 'pkg/geometry.py::twice.step@31')).id).toBe(
      'pkg/geometry.py::twice.<locals>.step@30',
    );
    // A name that is nobody's short form is still missing.
    expect((await fails('pkg/geometry.py::make_scaler.shift')).message).toMatch(
      /^No function make_scaler\.shift in pkg\/geometry\.py\./,
    );
  });

  it('reports an ambiguous name with every definition, and resolves it with @LINE', async () => {
    const error = await fails('pkg/geometry.py::Shape.area');
    expect(error.message).toContain('ambiguous');
    expect(error.message).toContain('pkg/geometry.py::Shape.area@2');
    expect(error.message).toContain('pkg/geometry.py::Shape.area@5');
    expect((await resolveTarget(repo, 'pkg/geometry.py::Shape.area@5')).startLine).toBe(5);
  });

  it('names an ambiguous target with its first line, which picks the same definition again (sessions record that name)', async () => {
    const setter = await resolveTarget(repo, 'pkg/geometry.py::Shape.area@6');
    expect(setter.id).toBe('pkg/geometry.py::Shape.area@5');
    expect((await resolveTarget(repo, setter.id)).startLine).toBe(5);
    expect((await resolveTarget(repo, 'pkg/geometry.py::Shape.area@3')).id).toBe('pkg/geometry.py::Shape.area@2');
    // A name that needs no line gets none, even when one was given.
    expect((await resolveTarget(repo, 'pkg/geometry.py::Shape.perimeter@9')).id).toBe(
      'pkg/geometry.py::Shape.perimeter',
    );
  });

  it('suggests the closest names for a missing function or file', async () => {
    const missing = await fails('pkg/geometry.py::perimeter');
    expect(missing.message).toContain('pkg/geometry.py::Shape.perimeter');
    // A name defined twice (a property's getter and setter) comes in the forms that pick each.
    const twice = await fails('pkg/geometry.py::Shape.aera');
    expect(twice.message).toContain('    pkg/geometry.py::Shape.area@2\n    pkg/geometry.py::Shape.area@5');
    expect(twice.message).not.toMatch(/Shape\.area$/m);
    const file = await fails('pkg/geometri.py::scale');
    expect(file.message).toMatch(/does not exist[\s\S]*pkg\/geometry\.py/);
  });

  it('a line in none of the definitions of a name that exists says where they are, not that the name is missing', async () => {
    const twice = await fails('pkg/geometry.py::Shape.area@99');
    expect(twice.message).toBe(
      [
        'No definition of Shape.area at line 99 of pkg/geometry.py: it is defined at lines 2-4 and 5-7.',
        '  Definitions:',
        '    pkg/geometry.py::Shape.area@2',
        '    pkg/geometry.py::Shape.area@5',
      ].join('\n'),
    );
    expect(twice.fix).toBe('pick one with a line inside it, e.g. --target pkg/geometry.py::Shape.area@2');
    // Once defined: the name alone picks it.
    const once = await fails('pkg/geometry.py::Shape.perimeter@1');
    expect(once.message).toContain(
      'No definition of Shape.perimeter at line 1 of pkg/geometry.py: it is defined at lines 8-9.',
    );
    expect(once.fix).toBe('leave @LINE out: --target pkg/geometry.py::Shape.perimeter');
    // A name that does not exist is still not found, line or not.
    expect((await fails('pkg/geometry.py::Shape.volume@3')).message).toContain(
      'No function Shape.volume in pkg/geometry.py.',
    );
  });

  it('refuses a class, listing its methods', async () => {
    const error = await fails('pkg/geometry.py::Shape');
    expect(error.message).toContain('is a class');
    expect(error.message).toContain('pkg/geometry.py::Shape.perimeter');
  });

  it("lists a class's method defined twice (a property's getter and setter) with the @LINE forms that pick each", async () => {
    const error = await fails('pkg/geometry.py::Shape');
    expect(error.message).toContain(
      [
        '  Its methods:',
        '    pkg/geometry.py::Shape.area@2',
        '    pkg/geometry.py::Shape.area@5',
        '    pkg/geometry.py::Shape.perimeter',
      ].join('\n'),
    );
  });

  it("lists a class's overloaded method once, by its implementation (the name picks it)", async () => {
    writeFileSync(
      join(repo, 'pkg', 'parse.py'),
      [
        'from typing import overload',
        '',
        'class Parser:',
        '    @overload',
        '    def parse(self, x: int) -> int: ...',
        '    @overload',
        '    def parse(self, x: str) -> str: ...',
        '    def parse(self, x):',
        '        return x',
        '',
      ].join('\n'),
    );
    const error = await fails('pkg/parse.py::Parser');
    expect(error.message).toMatch(/ {2}Its methods:\n {4}pkg\/parse\.py::Parser\.parse$/);
  });

  it('a name lost to a syntax error is reported as a file that does not parse, the name not found kept for when Python compiles it', async () => {
    writeFileSync(
      join(repo, 'pkg', 'broken.py'),
      [
        'class Box:',
        '    def open(self)',
        '        return 1',
        '',
        '    def close(self):',
        '        raise NotImplementedError',
        '',
      ].join('\n'),
    );
    const error = await fails('pkg/broken.py::Box.close');
    expect(error).toBeInstanceOf(TargetInBrokenFile);
    expect(error.message).toBe('pkg/broken.py does not parse, so tenet cannot find Box.close in it.');
    expect(error.fix).toContain('fix the syntax error in pkg/broken.py');
    expect((error as TargetInBrokenFile).notFound.message).toContain('No function Box.close in pkg/broken.py.');
  });

  it('refuses a file outside the repository', async () => {
    expect((await fails('../elsewhere.py::f')).message).toContain('outside the repository');
  });
});
