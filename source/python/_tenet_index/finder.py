"""The import hook that puts the probe into the workspace's modules as Python loads them.

It stands after pytest's assertion rewriter in ``sys.meta_path``: test modules and conftest files
stay pytest's (their import is a context the plugin marks), and every other module of the
workspace is compiled here, with the probe in each function, from its source: nothing is written
to ``__pycache__``, so the bytecode THM and plain pytest read is never the probed one. Each such
module's import is a context of its own (what its top level calls). A module of the workspace
that runs without the probe (loaded before this hook, or executed by other means) is noted as
unwatched: the index cannot say which tests reach its functions.
"""

import ast
import importlib.machinery
import os
import sys

from . import record
from .instrument import instrument

_root = None
_prefix = None
_emit = None
_on_import = None  # callable(path, slots) once a module's import ends
watched = set()  # real paths of the files compiled with the probe
_SKIP_PARTS = ("site-packages", "dist-packages", ".venv", "venv", ".tox", ".nox", "node_modules", ".eggs")


def _realpath(path):
    try:
        return os.path.realpath(path)
    except (OSError, ValueError):
        return path


def in_workspace(path):
    """A .py file of the workspace itself, not of an environment installed inside it."""
    if _prefix is None or not path or not path.endswith(".py"):
        return None
    real = _realpath(path)
    if not real.startswith(_prefix):
        return None
    rel = real[len(_prefix) :]
    if any(part in _SKIP_PARTS for part in rel.split(os.sep)[:-1]):
        return None
    return rel.replace(os.sep, "/")


class _ProbedLoader(importlib.machinery.SourceFileLoader):
    def get_code(self, fullname):
        path = self.get_filename(fullname)
        rel = in_workspace(path)
        source = importlib.util.decode_source(self.get_data(path))
        tree = ast.parse(source, path)
        table = instrument(tree, len(record.armed))
        record.add_file(rel, len(table))
        watched.add(_realpath(path))
        _emit({"e": "reachfile", "file": rel, "fns": [list(row) for row in table]})
        return compile(tree, path, "exec", dont_inherit=True)

    def exec_module(self, module):
        record.push()
        try:
            super().exec_module(module)
        finally:
            slots = record.pop()
            if slots:
                _on_import(self.path, slots)


class _ProbingFinder:
    """Finds what PathFinder finds; a workspace module gets the probing loader."""

    @classmethod
    def find_spec(cls, name, path=None, target=None):
        spec = importlib.machinery.PathFinder.find_spec(name, path, target)
        if spec is None or type(spec.loader) is not importlib.machinery.SourceFileLoader:
            return spec
        if in_workspace(spec.origin) is None:
            return spec
        spec.loader = _ProbedLoader(spec.loader.name, spec.loader.path)
        return spec

    @classmethod
    def invalidate_caches(cls):
        pass


def install(root, emit, on_import):
    """Right after pytest's assertion rewriter (or first, without one)."""
    global _root, _prefix, _emit, _on_import
    _root = _realpath(root)
    _prefix = _root + os.sep
    _emit = emit
    _on_import = on_import
    at = 0
    for index, finder in enumerate(sys.meta_path):
        if type(finder).__name__ == "AssertionRewritingHook":
            at = index + 1
    sys.meta_path.insert(at, _ProbingFinder)


def loaded_before():
    """Workspace modules already imported when the hook came: they run without the probe."""
    found = []
    for module in list(sys.modules.values()):
        rel = in_workspace(getattr(module, "__file__", None) or "")
        if rel is not None:
            found.append(rel)
    return found
