"""What the index cannot see itself, told by audit events (PEP 578).

- A test that starts a process (``subprocess``, ``os.system``, ``os.exec*``, ``posix_spawn``,
  ``os.fork``: multiprocessing's children too) may reach any function there, where no probe
  reports: such a test is in every target's scope.
- A module of the workspace whose code runs without the probe (``exec`` of its code compiled by
  other means than the import hook: a loader of the project's own, ``runpy`` of a module loaded
  before the hook) is unwatched: targets in it run their whole scope.
"""

import sys

from . import finder

_SPAWNS = frozenset(
    (
        "subprocess.Popen",
        "os.system",
        "os.exec",
        "os.posix_spawn",
        "os.spawn",
        "os.fork",
        "os.forkpty",
        "pty.spawn",
    )
)

spawned = False  # a process was started since the flag was last taken
unwatched = set()  # workspace files run without the probe (relative paths), to report
_reported = set()


def _hook(event, args):
    global spawned
    if event in _SPAWNS:
        spawned = True
    elif event == "exec" and args:
        code = args[0]
        filename = getattr(code, "co_filename", None)
        if filename and filename not in _reported and filename.endswith(".py"):
            _reported.add(filename)
            rel = finder.in_workspace(filename)
            if rel is not None and finder._realpath(filename) not in finder.watched:
                unwatched.add(rel)


sys.addaudithook(_hook)
