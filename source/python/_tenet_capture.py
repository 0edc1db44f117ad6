"""pytest's capture files, made a forked process's own.

With ``--capture=fd`` (pytest's default) a test's output goes to temporary files: the run's own
capture and, while a test uses it, ``capfd``'s. A forked process shares them with its parent
(one open file: one offset), and pytest reads and empties them after every test phase, so parent
and child would read and wipe each other's output. Each file object that pytest and the test hold
(``sys.stdout`` as a module kept it at import: ``ORIGINAL = sys.stdout``) keeps its descriptor
number; a new file is put under that number, and fd 1 and 2, while captured, point at it again.
``sys`` and ``tee-sys`` capture into memory, which fork copies, and ``no`` captures nothing.
"""

import os
import tempfile


def fd_captures(config):
    """The live captures into files: the run's, then a running test's ``capfd``/``capfdbinary``."""
    manager = config.pluginmanager.get_plugin("capturemanager")
    fixture = getattr(manager, "_capture_fixture", None)
    for multi in (getattr(manager, "_global_capturing", None), getattr(fixture, "_capture", None)):
        for part in (getattr(multi, "out", None), getattr(multi, "err", None)):
            if getattr(part, "targetfd_save", None) is not None:  # an fd capture
                yield part


def put_under(part, fresh):
    """``fresh``'s file (and its offset) under the descriptor number of the part's file."""
    fd = part.tmpfile.fileno()
    os.dup2(fresh.fileno(), fd, inheritable=os.get_inheritable(fd))
    if part._state == "started":
        os.dup2(fd, part.targetfd)


def start_empty(config):
    """A lane, forked between tests: empty files of its own."""
    for part in list(fd_captures(config)):
        with tempfile.TemporaryFile(buffering=0) as fresh:
            put_under(part, fresh)
        # Whatever the object still held for the old file lands in the new one at 0: dropped.
        part.tmpfile.seek(0)
        part.tmpfile.truncate()


def copies(config):
    """In the parent, just before forking a test's twin: each file as the test left it so far, in
    a file of its own. The twin takes them (``take``); the parent drops them (``drop``)."""
    taken = []
    try:
        for part in fd_captures(config):
            fd = part.tmpfile.fileno()
            fresh = tempfile.TemporaryFile(buffering=0)
            taken.append((part, fresh))
            size = os.fstat(fd).st_size
            if size:
                fresh.write(os.pread(fd, size, 0))
    except Exception:
        drop(taken)
        return []
    return taken


def take(taken):
    for part, fresh in taken:
        put_under(part, fresh)
    drop(taken)


def drop(taken):
    for _, fresh in taken:
        fresh.close()
