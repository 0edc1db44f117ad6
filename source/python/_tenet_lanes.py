"""Shards as lanes of one pytest process (TENET_LANES=n): collect once, then fork a process per shard.

Collecting a suite is importing it, and on a large package that is most of a run (sympy's
test_latex.py: 5.7 s of 8 s). Separate pytest processes per shard each pay it; lanes pay it once:
the process that collected forks n lanes and waits for them. The tests are cut into units (runs
of consecutive tests of a file); each lane takes the next unit when it is done with one, so lanes
end together however long their tests take, and says which units it took (a lane that dies has
the rest of its units run again by tenet).

The lanes write THM's events to the same stdout, each line in one write under a lock, tagged
with the lane. pytest's own terminal output in a lane goes nowhere (its summary would interleave
with the others'), and each lane captures test output in files of its own (behind the same
``sys.stdout`` and ``sys.stderr`` objects its tests saw at import).
"""

import os
import signal

import _tenet_capture as capture

_lock_fd = None
_notes = None  # what lanes note for the process that forked them (see note)


def fork(count, on_exit):
    """In the collecting process: the lane index in each lane, None in this process once all
    ended (``on_exit(index, exit code, signal)`` for each, as it ends)."""
    global _lock_fd, _notes
    import tempfile

    # A second fork (benchmark mode's original world) gets a fresh counter. The old file is closed
    # here, not left to the garbage collector: its ResourceWarning would come out in every lane
    # forked next and, under a suite's `filterwarnings = error`, fail each lane's first test.
    if _lock_fd is not None:
        _lock_fd.close()
    _lock_fd = tempfile.TemporaryFile()
    if _notes is None:
        _notes = tempfile.TemporaryFile()
    import gc

    gc.freeze()
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
    try:
        capture.start_empty(config)
    except Exception:
        pass
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        try:
            from _pytest._io import TerminalWriter

            reporter._tw = TerminalWriter(open(os.devnull, "w"))
        except Exception:
            pass


def next_unit():
    """The index of the next unit no lane has taken yet (a counter in the lock file)."""
    import fcntl

    fd = _lock_fd.fileno()
    fcntl.lockf(fd, fcntl.LOCK_EX)
    try:
        raw = os.pread(fd, 16, 0)
        taken = int(raw) if raw.strip() else 0
        os.pwrite(fd, b"%15d\n" % (taken + 1), 0)
        return taken
    finally:
        fcntl.lockf(fd, fcntl.LOCK_UN)


def with_room(function, *args):
    """``function(*args)`` with room on CPython's frame stack for every test's calls.

    Since 3.11, CPython keeps frames in chunks of 16 KiB that it maps when a call does not fit
    in the current one and unmaps when that call returns. A test loop that runs a few frames
    deeper than pytest's own (a lane's) can sit just below the end of a chunk, so that nearly
    every call of every test maps a chunk and unmaps it again, with fresh pages each time: two
    lanes of jsonschema's tests mapped 11,500 chunks and took 1.1 s more system time than one
    process (85 chunks once they ran from here). A frame this large makes CPython map a chunk of
    1 MiB for it, half of it free for the frames called from it.
    """
    return function(*args)


# 65,536 slots of 8 bytes: 512 KiB of frame, never written but for the few slots the call uses.
with_room.__code__ = with_room.__code__.replace(co_stacksize=1 << 16)


def run(session, units, on_take):
    """A lane's test loop: unit after unit, as pytest's own loop runs its items (each told the item
    after it, so wider fixtures are torn down only when the next test does not need them)."""
    with_room(_run, session, units, on_take)


def _run(session, units, on_take):
    def take():
        index = next_unit()
        if index >= len(units):
            return None
        on_take(units[index])
        return units[index]

    unit = take()
    while unit is not None:
        following = None
        for position, item in enumerate(unit):
            if position + 1 < len(unit):
                nextitem = unit[position + 1]
            else:
                following = take()
                nextitem = following[0] if following else None
            item.config.hook.pytest_runtest_protocol(item=item, nextitem=nextitem)
            if session.shouldfail or session.shouldstop:
                return
        unit = following


def note(line):
    """In a lane: a line for the process that forked it (read with noted() once the lanes ended)."""
    if _notes is not None:
        write_line(_notes.fileno(), (line + "\n").encode("utf-8", "surrogateescape"))


def noted():
    """In the forking process: every line the lanes noted."""
    if _notes is None:
        return set()
    _notes.seek(0)
    return {line for line in _notes.read().decode("utf-8", "surrogateescape").split("\n") if line}


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
