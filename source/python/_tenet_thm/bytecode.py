"""Bytecode as this process reads and writes it: cached test modules named where they are, and
bytecode written in the workspace even where the developer's setting says not to."""

import os
import sys
from importlib.machinery import SourceFileLoader

import _imp
from _pytest.assertion import rewrite as _rewrite

import _tenet_probe as probe

from .setting import _state

def _originals(*wanted):
    """The (owner, name) attributes of Python's and pytest's internals that the two functions
    below wrap, or None where one is missing (another version: then nothing is wrapped)."""
    found = [getattr(owner, name, None) for owner, name in wanted]
    return None if any(value is None for value in found) else found


def _name_cached_tests_where_they_are():
    """pytest keeps each test module with its asserts rewritten in `__pycache__`, and takes it from
    there while the source's mtime and size match, with the file name it was compiled under: a
    module rewritten in the checkout (the developer ran pytest there), or in the workspace of an
    earlier run, would name the checkout's or a removed folder's file in every frame, so its chains
    would start outside the workspace and its failures cite code that is not the code that ran.
    Python's own loader renames what it reads from a cache (`_imp._fix_co_filename`); pytest's
    does not, so its reader is wrapped to do the same."""
    originals = _originals((_rewrite, "_read_pyc"), (_imp, "_fix_co_filename"))
    if originals is None:
        return
    read, rename = originals

    def _read_pyc(source, pyc, *args, **kwargs):
        code = read(source, pyc, *args, **kwargs)
        if code is not None and code.co_filename != str(source):
            rename(code, str(source))
        return code

    _rewrite._read_pyc = _read_pyc


_name_cached_tests_where_they_are()


def _write_bytecode_in_the_workspace():
    """Where bytecode is not to be written (PYTHONDONTWRITEBYTECODE, `-B`), every run compiles the
    workspace's modules again, and pytest rewrites every test module again: 3 s of sympy's 5.5 s
    for its test_latex.py. That choice is for the developer's own folders; the workspace is
    tenet's, and the copy tenet keeps for the next run keeps its bytecode (see copy-tree.ts). So
    this process writes bytecode again, inside the workspace only: a cache folder that is not
    the workspace's (another package's, a link planted out of it, a PYTHONPYCACHEPREFIX) is left
    as the setting wants it. The tests' own subprocesses inherit the setting as it was."""
    originals = _originals((SourceFileLoader, "_cache_bytecode"), (_rewrite, "try_makedirs"))
    if not sys.dont_write_bytecode or originals is None:
        return
    cache, makedirs = originals

    def inside(folder):
        real = probe._realpath(str(folder))
        return real.startswith(_state.root + os.sep)

    def _cache_bytecode(self, source_path, bytecode_path, data):
        if inside(os.path.dirname(bytecode_path)):
            return cache(self, source_path, bytecode_path, data)
        return None

    def try_makedirs(cache_dir):
        return inside(cache_dir) and makedirs(cache_dir)

    SourceFileLoader._cache_bytecode = _cache_bytecode
    _rewrite.try_makedirs = try_makedirs
    sys.dont_write_bytecode = False


_write_bytecode_in_the_workspace()
