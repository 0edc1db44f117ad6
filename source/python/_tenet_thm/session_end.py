"""End of the session: the last event, and a quick end of the process once it is out."""

import atexit
import gc
import os
import sys

import pytest

import _tenet_probe as probe

from .channel import _emit, _out
from .setting import _TARGET_FILE, _state

def _target_module_names():
    """The names the target's module can be imported under: its path from the workspace's root
    as a dotted name, and each shorter tail of it (a src/ layout imports src/pkg/mod.py as
    pkg.mod). A bare last part counts only where it is the whole path: `text` of
    mypkg/utils/text.py would name any module called text."""
    parts = os.path.relpath(_TARGET_FILE, _state.root).split(os.sep)
    parts[-1] = parts[-1][: -len(".py")] if parts[-1].endswith(".py") else parts[-1]
    if parts[-1] == "__init__" and len(parts) > 1:
        parts = parts[:-1]
    return {".".join(parts[i:]) for i in range(len(parts)) if len(parts) - i >= min(2, len(parts))}


def _outside_copies():
    """Modules loaded under one of the target module's names from a file that is not the
    workspace's: another checkout, or the package installed. Another package's module whose path
    merely ends alike (traitlets/utils/text.py for mypkg/utils/text.py) is not one."""
    if not _TARGET_FILE:
        return []
    names = _target_module_names()
    found = []
    for name, module in list(sys.modules.items()):
        filename = getattr(module, "__file__", None) if name in names else None
        if not filename:
            continue
        real = probe._realpath(filename)
        if real != _TARGET_FILE and not real.startswith(_state.root + os.sep):
            found.append({"module": name, "file": real})
    return found


# The exit status once "done" is out (see _end_quickly).
_finished = None


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session, exitstatus):
    """Last of the session's ends (fixtures torn down, other plugins' ends run): tenet has what it
    needs from this process once "done" is out. What pytest still does then is for a reader of its
    output or for the process's own end, and tenet would only wait for it: the failures printed
    again (0.2-0.4 s for a hundred of them, skipped: the summary's traceback style is set to
    "no" once every report is made), five garbage collections over the whole heap (to report
    unraisable exceptions: the heap is frozen, so they have nothing to walk) and the interpreter's
    teardown of every module (the process ends at exit once the atexit handlers registered after
    this plugin, the tests' own, have run: see _end_quickly).
    """
    global _finished
    loaded_here = any(
        probe._realpath(getattr(m, "__file__", None) or "") == _TARGET_FILE for m in list(sys.modules.values())
    )
    _emit({"e": "done", "exitstatus": int(exitstatus), "targetLoaded": loaded_here, "outside": _outside_copies()})
    _finished = int(exitstatus)
    session.config.option.tbstyle = "no"
    gc.freeze()


def _end_quickly():
    """Registered at import, so it runs after every atexit handler registered later: the process
    ends here, skipping the interpreter's teardown, once "done" is out (else it ends as usual)."""
    if _finished is None or _state.in_child:
        return
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__, _out):
        try:
            stream.flush()
        except Exception:
            pass
    os._exit(_finished)


atexit.register(_end_quickly)
