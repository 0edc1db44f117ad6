"""Shards as lanes of one pytest process (TENET_LANES=n): collect once, then fork a process per shard.

Collecting a suite is importing it, and on a large package that is most of a run (sympy's
test_latex.py: 5.7 s of 8 s). Separate pytest processes per shard each pay it; lanes pay it once:
the process that collected forks n lanes, each runs its share of the tests (the same share
TENET_SHARD=k/n gives, so a lane that dies can be run again as a plain shard), and waits for them.

The lanes write THM's events to the same stdout, each line in one write under a lock, tagged
with the lane. pytest's own terminal output in a lane goes nowhere (its summary would interleave
with the others'), and each lane captures test output in files of its own.
"""

import os
import signal

_lock_fd = None


def fork(count, on_exit):
    """In the collecting process: the lane index in each lane, None in this process once all
    ended (``on_exit(index, exit code, signal)`` for each, as it ends)."""
    global _lock_fd
    import tempfile

    _lock_fd = tempfile.TemporaryFile()
    pids = []
    for index in range(count):
        pid = os.fork()
        if pid == 0:
            return index
        pids.append(pid)
    while pids:
        try:
            pid, status = os.wait()
        except ChildProcessError:
            break
        if pid not in pids:
            continue
        signalled = os.WIFSIGNALED(status)
        on_exit(pids.index(pid), None if signalled else os.WEXITSTATUS(status), os.WTERMSIG(status) if signalled else None)
        pids[pids.index(pid)] = None
        if not any(pids):
            break
    return None


def settle(config):
    """In a lane, right after the fork."""
    if os.uname().sysname == "Linux":
        try:
            import ctypes

            ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG: die with the collecting process
        except Exception:
            pass
    capture = config.pluginmanager.get_plugin("capturemanager")
    try:
        # Files of its own for captured output (the collecting process's are shared after the fork).
        capture.stop_global_capturing()
        capture.start_global_capturing()
    except Exception:
        pass
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        try:
            from _pytest._io import TerminalWriter

            reporter._tw = TerminalWriter(open(os.devnull, "w"))
        except Exception:
            pass


def write_line(fd, data):
    """One event line, whole, among the other lanes' (a pipe only keeps short writes whole)."""
    import fcntl

    if _lock_fd is None:
        _write(fd, data)
        return
    fcntl.lockf(_lock_fd, fcntl.LOCK_EX)
    try:
        _write(fd, data)
    finally:
        fcntl.lockf(_lock_fd, fcntl.LOCK_UN)


def _write(fd, data):
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
