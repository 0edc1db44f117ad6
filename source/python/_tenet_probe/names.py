"""How the probe names a frame: ``relpath::qualname``, the same in every process and test order."""

import os
import re
import sys

from .state import _realpath, state

COMPREHENSIONS = {"<listcomp>", "<dictcomp>", "<setcomp>", "<genexpr>"}
_names = {}

_FRAMEWORK_PARTS = tuple(
    os.sep + part + os.sep for part in ("_pytest", "pluggy", "unittest", "pytest", "importlib")
)


# tenet's own modules (the helpers' folder, its packages included: the probe, the plugin, the
# lanes' runner) are no code of the repository's. Lanes run their tests from _tenet_lanes.py, which
# no other mode has on the stack: a call with no test or fixture above it (a package's
# setup_module) started its chain there.
_OWN_TREE = os.path.dirname(os.path.dirname(__file__)) + os.sep


def is_framework(filename):
    if filename.startswith(("<frozen", _OWN_TREE)):
        return True
    return any(part in filename for part in _FRAMEWORK_PARTS) or filename.endswith(
        (os.sep + "runpy.py", os.sep + "pytest.py")
    )


def _in_workspace(real):
    """Whether a real path is the workspace root or inside it."""
    return real == state.root or real.startswith(state.root + os.sep)


def display_path(filename):
    """Path of a frame's file: relative to the workspace root, else to its sys.path entry."""
    cached = _names.get(filename)
    if cached is not None:
        return cached
    if filename.startswith("<"):
        result = generated_name(filename)
    else:
        real = _realpath(filename)
        if _in_workspace(real):
            result = os.path.relpath(real, state.root)
        else:
            best = ""
            for entry in sys.path:
                entry = _realpath(entry or os.getcwd())
                if real.startswith(entry + os.sep) and len(entry) > len(best):
                    best = entry
            result = os.path.relpath(real, best) if best else real
        result = result.replace(os.sep, "/")
    _names[filename] = result
    return result


# A counter in a generated file or function name: `<class '...argmap'> compilation 326`,
# `<decorator-gen-12>`, `argmap_density_329`. A number glued to a word (`py3k`, `<doctest m[2]>`)
# is not one.
_FILE_COUNTER = re.compile(r"[ _-](?:0x[0-9a-fA-F]+|[0-9]+)(?=$|[ _>-])")
_NAME_COUNTER = re.compile(r"_[0-9]+$")


def generated_name(filename, qualname=None):
    """A stable label for code compiled at run time (its file name starts with "<").

    Generators of code (networkx's argmap, the decorator package) number what they compile with a
    process-wide counter, so the same function gets another name in another process, or after
    other tests. The counters are dropped: from the file name, and with a qualname, from the end of
    each of its parts; returns (label, qualname) then.
    """
    label = _FILE_COUNTER.sub("", filename) if filename.startswith("<") else filename
    if qualname is None:
        return label
    if filename.startswith("<"):
        qualname = ".".join(_NAME_COUNTER.sub("", part) or part for part in qualname.split("."))
    return label, qualname


_CODE = type(generated_name.__code__)
_CO_NEWLOCALS = 0x2  # a function's scope, not a class body's
_file_qualnames = {}  # filename -> {(first line, name): qualname}; Python < 3.11 only


def _qualnames_of(filename):
    """Every code object's qualname in a source file, as the compiler names them (Python 3.10)."""
    table = _file_qualnames.get(filename)
    if table is not None:
        return table
    table = {}
    try:
        import linecache

        source = "".join(linecache.getlines(filename))
        todo = [(compile(source, filename, "exec", dont_inherit=True), "")] if source else []
    except Exception:
        todo = []
    while todo:
        code, prefix = todo.pop()
        for const in code.co_consts:
            if isinstance(const, _CODE):
                qualname = prefix + const.co_name
                table.setdefault((const.co_firstlineno, const.co_name), qualname)
                todo.append((const, qualname + (".<locals>." if const.co_flags & _CO_NEWLOCALS else ".")))
    _file_qualnames[filename] = table
    return table


def _qualname(frame):
    code = frame.f_code
    qualname = getattr(code, "co_qualname", None)  # Python 3.11+
    if qualname:
        return qualname
    # Python 3.10: the name the compiler gives this code object in its file, as 3.11 would.
    name = code.co_name
    if not code.co_filename.startswith("<"):
        qualname = _qualnames_of(code.co_filename).get((code.co_firstlineno, name))
        if qualname:
            return qualname
    # Else find the class that defines this code object through self/cls.
    if code.co_argcount and code.co_varnames:
        first = frame.f_locals.get(code.co_varnames[0])
        klass = first if isinstance(first, type) else type(first)
        for base in getattr(klass, "__mro__", ()):
            member = base.__dict__.get(name)
            member = getattr(member, "__func__", member)
            if getattr(member, "__code__", None) is code:
                return base.__qualname__ + "." + name
    return name


_outside = {}


def outside_workspace(filename):
    """Whether code from this file is none of the repository's own: the standard library, an
    installed package, code compiled at run time (a dataclass's `__init__`, networkx's argmap)."""
    found = _outside.get(filename)
    if found is None:
        found = filename.startswith("<") or not _in_workspace(_realpath(filename))
        _outside[filename] = found
    return found


def _frame_record(frame):
    code = frame.f_code
    qualname = _qualname(frame)
    if code.co_filename.startswith("<"):
        qualname = generated_name(code.co_filename, qualname)[1]
    record = {
        "name": display_path(code.co_filename) + "::" + qualname,
        "line": frame.f_lineno,
        "comprehension": code.co_name in COMPREHENSIONS,
    }
    if outside_workspace(code.co_filename):
        record["outside"] = True
    return record
