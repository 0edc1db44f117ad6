"""Twin mode's blank twin: forked at a test's first call of the target, it finishes the test as if
the target were blank and hands its outcome to the parent (see _tenet_thm's twin module)."""

import json
import os
import sys

from .state import state


def _identity(fd):
    try:
        info = os.fstat(fd)
        return (info.st_dev, info.st_ino)
    except OSError:
        return None


# tenet may start pytest with sockets as stdin/stdout/stderr; pytest's capture keeps duplicates of
# them, and those must stay open in the twin. Taken at import, before capture replaces fds 0-2.
_STDIO = {_identity(fd) for fd in (0, 1, 2)} - {None}


def _close_sockets(keep):
    """The blank twin must not talk to servers the parent still uses (databases, brokers)."""
    import stat

    try:
        fds = [int(name) for name in os.listdir("/proc/self/fd")]
    except OSError:
        fds = range(3, 256)
    for fd in fds:
        if fd in keep or fd < 3:
            continue
        try:
            info = os.fstat(fd)
            if stat.S_ISSOCK(info.st_mode) and (info.st_dev, info.st_ino) not in _STDIO:
                os.close(fd)
        except OSError:
            pass


def _fork(ctx, frame):
    # The twin formats a failure report; pytest then looks up modules by file through inspect,
    # whose cache would be rebuilt in every twin. Fill it once here, in the parent.
    try:
        import inspect

        inspect.getmodule(frame)
    except Exception:
        pass
    after_fork = state.at_twin_fork(ctx) if state.at_twin_fork is not None else None
    go_read, go_write = os.pipe()
    result_read, result_write = os.pipe()
    pid = os.fork()
    if after_fork is not None:
        after_fork(pid == 0)
    if pid:
        os.close(go_read)
        os.close(result_write)
        ctx.fork = {"pid": pid, "go": go_write, "result": result_read}
        return
    # The blank twin: wait until the parent has finished this test with the original code.
    os.close(go_write)
    os.close(result_read)
    try:
        go = os.read(go_read, 1)
    except OSError:
        go = b""
    if not go:
        os._exit(0)  # the parent died or gave up on us
    state.twin_text = go != b"f"
    os.close(go_read)
    # Short-lived: no collection, so no page of the parent's heap is touched (and copied) for it.
    import gc

    gc.disable()
    state.in_child = True
    state.child_result_fd = result_write
    _close_sockets({result_write})
    if state.on_child_start is not None:
        state.on_child_start()


def send_child_result(result):
    """In the blank twin: hand the outcome to the parent and vanish without running anything else."""
    data = json.dumps(result, default=str).encode("utf-8", "replace")
    view = memoryview(data)
    while view:
        written = os.write(state.child_result_fd, view)
        view = view[written:]
    os._exit(0)


def _may_fork():
    """Only the main thread of a process without other threads may fork (see the module's notes)."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        return False
    return all(t is threading.main_thread() or isinstance(t, threading._DummyThread) for t in threading.enumerate())


def _in_event_loop():
    """Whether an asyncio event loop or a trio run is going on in this thread: a twin forked inside
    it would share the loop's selector (an epoll descriptor) with its parent, and each would change
    the other's (the twin's test then fails with "Bad file descriptor"). Such a test runs blank in
    a pass of its own instead. trio's run (pytest-trio, anyio's trio backend) has its own loop,
    which asyncio does not see."""
    asyncio = sys.modules.get("asyncio")
    try:
        if asyncio is not None and asyncio._get_running_loop() is not None:
            return True
    except Exception:
        pass
    trio = sys.modules.get("trio")
    try:
        # Raises RuntimeError outside a trio run (trio keeps its run per thread).
        return trio is not None and trio.lowlevel.current_trio_token() is not None
    except Exception:
        return False

