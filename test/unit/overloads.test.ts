import { describe, expect, it } from 'vitest';
import { listDefinitions } from '../../source/engine/python-source/definitions';
import { implementations } from '../../source/engine/python-source/overloads';
import { parsePython } from '../../source/engine/python-source/parser';

/** Start lines of the definitions of `name` that implementations() keeps. */
async function kept(source: string, name = 'f'): Promise<number[]> {
  const tree = await parsePython(source);
  try {
    return implementations(listDefinitions(tree), tree)
      .filter((d) => d.qualname === name)
      .map((d) => d.startLine);
  } finally {
    tree.delete();
  }
}

const overloaded = (imports: string, decorator: string) =>
  `${imports}\n@${decorator}\ndef f(x: int) -> int: ...\n@${decorator}\ndef f(x: str) -> str: ...\ndef f(x):\n    return x\n`;

describe('which definitions are @overload stubs', () => {
  it('typing.overload under any name the module binds it to', async () => {
    expect(await kept(overloaded('from typing import overload', 'overload'))).toEqual([6]);
    expect(await kept(overloaded('import typing', 'typing.overload'))).toEqual([6]);
    expect(await kept(overloaded('import typing as t', 't.overload'))).toEqual([6]);
    expect(await kept(overloaded('import typing_extensions as te', 'te . overload'))).toEqual([6]);
    expect(await kept(overloaded('from typing_extensions import overload as sig', 'sig'))).toEqual([6]);
    expect(await kept(overloaded('if TYPE_CHECKING:\n    from typing import overload as ov', 'ov'))).toEqual([7]);
  });

  it("not another package's overload, whose overloads are implementations", async () => {
    expect(await kept(overloaded('from plum import overload', 'overload'))).toEqual([2, 4, 6]);
    expect(await kept(overloaded('import functools', 'functools.cache'))).toEqual([2, 4, 6]);
  });

  it('a name with overloads only keeps them, so it is still found', async () => {
    expect(await kept('from typing import overload\n@overload\ndef f(x: int) -> int: ...\n')).toEqual([2]);
  });
});
