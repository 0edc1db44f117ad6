import { describe, expect, it } from 'vitest';
import { closestNames, editDistance } from '../../source/engine/util/closest';

/** Function qualnames of traitlets 5's traitlets/traitlets.py (a part: the validate-like ones and some others). */
const TRAITLETS = [
  '_validate_link',
  'link._update_target',
  'link._update_source',
  'directional_link._update',
  'TraitType.__init__',
  'TraitType._validate',
  'TraitType._cross_validate',
  'validate',
  'ValidateHandler.__init__',
  'ValidateHandler.instance_init',
  'HasTraits.cross_validation_lock',
  'HasTraits._register_validator',
  'Type.validate',
  'Instance.validate',
  'This.validate',
  'Union.validate',
  '_validate_bounds',
  'Int.__init__',
  'Int.validate',
  'Int.from_string',
  'CInt.validate',
  'Float.validate',
  'CFloat.validate',
  'Complex.validate',
  'CComplex.validate',
  'Bytes.validate',
  'CBytes.validate',
  'Unicode.validate',
  'CUnicode.validate',
  'ObjectName.validate',
  'DottedObjectName.validate',
  'Bool.validate',
  'CBool.validate',
  'Enum.validate',
  'CaselessStrEnum.validate',
  'FuzzyEnum.validate',
  'Container.validate',
  'Container.validate_elements',
  'List.validate_elements',
  'Set.validate_elements',
  'Tuple.validate_elements',
  'Dict.validate',
  'Dict.validate_elements',
  'TCPAddress.validate',
  'CRegExp.validate',
  'UseEnum.validate',
  'Callable.validate',
];

describe('editDistance', () => {
  it('counts inserts, deletes, substitutions and a swap of neighbours as one edit each', () => {
    expect(editDistance('thm', 'thm')).toBe(0);
    expect(editDistance('tmh', 'thm')).toBe(1);
    expect(editDistance('_validate_bound', '_validate_bounds')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });
});

describe('closestNames', () => {
  it('puts a one-edit near miss first, before names that merely contain a shorter part', () => {
    expect(closestNames('_validate_bound', TRAITLETS)[0]).toBe('_validate_bounds');
    expect(closestNames('area', ['Shape.area_sum', 'Shape.aria'])).toEqual(['Shape.aria', 'Shape.area_sum']);
  });

  it("puts the same class's method first when the method is misspelt", () => {
    const names = closestNames('Int.validat', TRAITLETS);
    expect(names[0]).toBe('Int.validate');
    expect(names).toHaveLength(5);
    expect(names.every((n) => n.endsWith('.validate'))).toBe(true);
  });

  it('finds a method by its bare name, and a name containing the one asked for', () => {
    expect(closestNames('perimeter', ['Shape.perimeter', 'scale', 'area_sum'])).toEqual(['Shape.perimeter']);
    expect(closestNames('total', ['Cart.subtotal', 'Cart.count', 'render'])[0]).toBe('Cart.subtotal');
  });

  it('suggests files by path, and the nearest few when nothing is close', () => {
    expect(closestNames('pkg/geometri.py', ['pkg/geometry.py', 'pkg/__init__.py', 'setup.py'])[0]).toBe(
      'pkg/geometry.py',
    );
    expect(closestNames('zzzzzzzz', ['alpha', 'beta', 'gamma', 'delta'])).toHaveLength(3);
  });
});
