"""What the reach index records: which functions each context reached.

A context is a test (setup, call, teardown), a wider fixture's setup, a test module's import, the
import of any other module of the workspace, or the rest (pytest's start and hooks: "outside").
A function reports itself once per context: its slot in ``__tenet_armed__`` is switched off at
its first call and on again when the context ends. A context that starts inside another (a
module-scoped fixture set up during a test) switches on again every function the outer ones
reached, so that its own record is whole: a later test that gets the fixture's cached value
inherits that record, and must not miss a function only because the first test had called it
before the fixture's setup.
"""

import builtins

from .instrument import ARMED, REACHED

armed = []  # slot -> whether the function reports its next call
owners = []  # slot -> (file index, index of the function in its file's table)
files = []  # file index -> path relative to the workspace root
_file_index = {}  # path -> file index

_trail = []  # slots reached in the innermost context, in order, maybe twice
_outer = []  # the trails of the contexts around it


def reached(slot):
    armed[slot] = False
    _trail.append(slot)


setattr(builtins, ARMED, armed)
setattr(builtins, REACHED, reached)


def add_file(path, count):
    """Slots for a file's `count` functions; returns the first."""
    index = _file_index.get(path)
    if index is None:
        index = _file_index[path] = len(files)
        files.append(path)
    first = len(armed)
    armed.extend([True] * count)
    owners.extend((index, local) for local in range(count))
    return first


def _rearm(slots):
    for slot in slots:
        armed[slot] = True


def push():
    """A context starts inside the current one."""
    global _trail
    _rearm(_trail)
    for trail in _outer:
        _rearm(trail)
    _outer.append(_trail)
    _trail = []


def pop():
    """The innermost context ends: its slots (each once); they count for the one around it too."""
    global _trail
    inner = _trail
    _trail = _outer.pop() if _outer else []
    _trail.extend(inner)
    return set(inner)


def take():
    """The slots of the current (outermost) context so far, each once; it starts afresh."""
    global _trail
    taken, _trail = _trail, []
    _rearm(taken)
    return set(taken)


def by_file(slots):
    """``{path: [index in the file's table, ...]}`` for the slots."""
    grouped = {}
    for slot in slots:
        file, local = owners[slot]
        grouped.setdefault(files[file], []).append(local)
    for locals_ in grouped.values():
        locals_.sort()
    return grouped
