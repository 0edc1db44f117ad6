"""Runs one command of tenet's sandbox and takes everything it started down with it.

tenet starts each process of the local sandbox (the debugger shell, pytest, THM's runs) as
``python3 -I -S _tenet_launch.py COMMAND ARGS...``; in a Docker container, each exec's ``sh`` runs
its command so (see docker/exec-process.ts), and that ``sh`` is the parent it dies with. A process
group alone does not hold what the command starts: ``setsid`` or a double fork leaves the group,
keeps tenet's pipes open (a headless run then waits for it) and outlives tenet. So this launcher

- is a child subreaper (Linux ``PR_SET_CHILD_SUBREAPER``): whatever the command orphans, through
  setsid and double forks, becomes the launcher's child instead of init's and stays findable;
- gets SIGTERM when tenet dies, even by SIGKILL (``PR_SET_PDEATHSIG``);
- on SIGTERM or SIGHUP (tenet stops the command, or is gone), and when the command ends, kills
  every process below it, then ends as the command did (its exit code, or its signal).

The launcher ignores SIGINT: tenet sends it to the process group (Ctrl-C in the debugger) for
the command. It keeps no end of tenet's pipes. Standard library only; ``-I -S`` so nothing of the
workspace or the environment can shadow a module it imports.

It starts before every process of a sandbox, so it imports little: ``_signal`` rather than
``signal``, whose enums took 5 of the launcher's 21 ms of CPU a command, and ``_ctypes`` rather
than ``ctypes`` (3 ms more).
"""

import _signal as signal
import os
import sys
import time

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36


class Stop(Exception):
    """tenet asked for everything to stop (SIGTERM), or went away (SIGHUP, the death signal)."""


def _stop(_signum, _frame):
    # Said once: tenet's stop and its sandbox's come a millisecond apart at a run's end, and a
    # second Stop raised while the first is handled would end the launcher before it killed
    # anything below it (setsid'd processes of the debugger shell were left running).
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    raise Stop()


def _prctl(option, value):
    # ctypes' C core alone, with the two types a call needs: importing the ``ctypes`` package (its
    # classes, ``struct``) took 3 of the launcher's 16 ms. The call is ctypes' own: a C int return,
    # Python ints passed as C ints, as ``ctypes.CDLL(None).prctl(...)`` makes it.
    try:
        import _ctypes

        class Int(_ctypes._SimpleCData):
            _type_ = "i"

        class Function(_ctypes.CFuncPtr):
            _flags_ = _ctypes.FUNCFLAG_CDECL
            _restype_ = Int

        class Process:
            _handle = _ctypes.dlopen(None)

        Function(("prctl", Process))(option, value, 0, 0, 0)
    except Exception:
        pass


def _below(root):
    """Processes below ``root`` (children of children included), and which of them are zombies."""
    children = {}
    zombies = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry, "rb") as stat:
                data = stat.read()
        except OSError:
            continue
        # "pid (comm) state ppid ...": comm may hold spaces and parentheses.
        fields = data[data.rfind(b")") + 2 :].split()
        pid = int(entry)
        children.setdefault(int(fields[1]), []).append(pid)
        if fields[0] == b"Z":
            zombies.add(pid)
    found, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), ()):
            found.append(child)
            todo.append(child)
    return found, zombies


def _reap():
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _no_children():
    """Whether nothing is left below: an orphan of the command is this subreaper's child, so no child means no descendant."""
    try:
        os.waitpid(-1, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


def _kill_everything_below():
    if _no_children():
        return  # the usual end: no scan of /proc needed
    me = os.getpid()
    for _ in range(500):
        pids, zombies = _below(me)
        living = [pid for pid in pids if pid not in zombies]
        if not living:
            break
        for pid in living:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        _reap()
        time.sleep(0.002)
    _reap()


def main():
    argv = sys.argv[1:]
    if not argv:
        sys.stderr.write("usage: _tenet_launch.py COMMAND [ARGS...]\n")
        return 2
    tenet = os.getppid()
    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGHUP, _stop)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _prctl(PR_SET_CHILD_SUBREAPER, 1)
    _prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    if os.getppid() != tenet:
        return 1  # tenet died before the death signal was set
    # THM's plugin dies with its parent (see _tenet_thm): the parent is the launcher now.
    if os.environ.get("TENET_PARENT_PID") == str(tenet):
        os.environ["TENET_PARENT_PID"] = str(os.getpid())
    # Held back while forking, so that a stop always finds the command's pid known.
    stops = {signal.SIGTERM, signal.SIGHUP}
    signal.pthread_sigmask(signal.SIG_BLOCK, stops)
    command = os.fork()
    if command == 0:
        for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGPIPE, signal.SIGXFSZ):
            signal.signal(number, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, stops)
        try:
            os.execvp(argv[0], argv)
        except OSError as error:
            os.write(2, ("tenet: cannot run %s: %s\n" % (argv[0], error.strerror)).encode())
            os._exit(127 if isinstance(error, FileNotFoundError) else 126)
    status = None
    try:
        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(devnull, fd)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, stops)
        while True:
            try:
                pid, wstatus = os.waitpid(-1, 0)
            except ChildProcessError:
                break
            if pid == command:
                status = wstatus
                break
    except Stop:
        pass
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    _kill_everything_below()
    if status is None:
        try:
            _, status = os.waitpid(command, 0)
        except ChildProcessError:
            status = signal.SIGKILL  # reaped with the rest: it was killed
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        if number not in (signal.SIGKILL, signal.SIGSTOP):
            signal.signal(number, signal.SIG_DFL)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {number})
        os.kill(os.getpid(), number)
    return os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1


if __name__ == "__main__":
    sys.exit(main())
