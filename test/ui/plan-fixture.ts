import type { PlanTarget } from '../../source/engine/protocol/plan';

/** A plan of three targets in one module, in file order (none calls another). */
export const [DESCRIBE, AREA, PERIMETER] = ['describe', 'area', 'perimeter'].map((n) => `geo/shapes.py::${n}`) as [
  string,
  string,
  string,
];

export const target = (name: string, reaches: string[]): PlanTarget => ({
  target: `geo/shapes.py::${name}`,
  file: 'geo/shapes.py',
  qualname: name,
  nth: 0,
  signature: `def ${name}(width, height):`,
  summary: `The rectangle's ${name}.`,
  reaches,
  needs: [],
});

export const proposal = () => ({
  targets: [
    target('describe', ['tests/test_shapes.py::test_describe']),
    target('area', ['tests/test_shapes.py::test_area', 'tests/test_shapes.py::test_square']),
    target('perimeter', ['tests/test_shapes.py::test_perimeter']),
  ],
  order: [DESCRIBE, AREA, PERIMETER],
  why: ['file order: the code shows no target calling another'],
});
