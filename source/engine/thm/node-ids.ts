/** The file part of a node id: `tests/test_a.py::TestX::test_y[1]` → `tests/test_a.py`; a module entry is its own file. */
export function testFile(nodeid: string): string {
  const at = nodeid.indexOf('::');
  return at === -1 ? nodeid : nodeid.slice(0, at);
}
