"""tenet's mutation worker: runs pytest against mutants of one module, one mutant at a time.

    python -m _tenet_mutation --target PATH

Started in the workspace root with the same environment as ``python -m pytest`` (``-m`` puts the
current folder first on ``sys.path``, as pytest's own ``-m`` start does). It imports pytest once;
each request then runs in a forked child, so no mutant sees another's state and none pays for
the interpreter's start-up.

How the tests get the mutant: the child puts an import hook first on ``sys.meta_path``. When any
import resolves (through the normal path finder, with the same ``sys.path`` and package
``__path__``) to the target file, the hook hands out the mutant's code, compiled from the text
tenet sent, instead of the file's. Nothing is written to disk, so the workspace keeps the ground
truth and no ``.pyc`` of a mutant can ever be loaded by another run. It works whatever the
layout (``src/``, flat, namespace packages) because it matches the resolved file, not a module
name, and a module imported under two names gets the mutant under both. Tests that import the
target only in a subprocess see the file on disk; the baseline reports whether the test process
imported the target at all, so tenet can say so.

Protocol. stdin: one JSON request per line,
    {"id": str, "source": base64 of the module's bytes or null (the file as it is),
     "timeout": seconds, "args": [pytest arguments], "output": bool}
stdout: one line per request, MARK + JSON,
    {"id", "status", "exitCode", "signal", "durationMs", "loaded", "output"?, "message"?}
status: passed (pytest exit 0) | failed (exit 1, or 2: interrupted, e.g. a module failed to
import) | crashed (the child died of a signal) | timeout (killed after "timeout" seconds) |
invalid (the mutant does not compile) | error (pytest's internal or usage errors, no tests).
"""

import base64
import importlib.machinery
import json
import os
import select
import signal
import sys
import tempfile
import time

MARK = "\x1etenet:"
_OUTPUT_TAIL = 6000


def _real(path):
    try:
        return os.path.realpath(path)
    except (OSError, ValueError):
        return path


def _die_with_parent(parent_pid):
    """Linux: die when the given parent dies, even by SIGKILL (it cannot clean up after us then)."""
    if not sys.platform.startswith("linux") or os.getppid() != parent_pid:
        return
    try:
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except Exception:
        pass


class MutantLoader(importlib.machinery.SourceFileLoader):
    """Loads the target from the mutant's compiled code: never reads or writes a ``.pyc``."""

    def __init__(self, fullname, path, code, source):
        super().__init__(fullname, path)
        self._code = code
        self._source = source

    def get_code(self, fullname):
        return self._code

    def get_source(self, fullname):
        import importlib.util

        return importlib.util.decode_source(self._source)


class TargetFinder:
    """First on ``sys.meta_path``: serves the mutant wherever the target file would be imported."""

    def __init__(self, target, code, source):
        self.target = _real(target)
        base = os.path.basename(target)
        # Only names that could resolve to the file are looked up twice: `pkg.core` for core.py,
        # `pkg` for pkg/__init__.py.
        self.stem = os.path.basename(os.path.dirname(target)) if base == "__init__.py" else os.path.splitext(base)[0]
        self.code = code
        self.source = source
        self.loaded = False

    def find_spec(self, name, path=None, target=None):
        if name.rpartition(".")[2] != self.stem:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or not spec.origin or _real(spec.origin) != self.target:
            return None
        self.loaded = True
        if self.code is not None:
            spec.loader = MutantLoader(name, spec.origin, self.code, self.source)
            spec.cached = None
        return spec

    def invalidate_caches(self):
        pass


def _run_child(request, code, source, target, log, result_w):
    """In the forked child: own process group, output to the log, the hook, then pytest."""
    os.setpgrp()
    _die_with_parent(os.getppid())
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(log.fileno(), 1)
    os.dup2(log.fileno(), 2)
    finder = TargetFinder(target, code, source)
    sys.meta_path.insert(0, finder)
    exit_code = 3
    try:
        import pytest

        sys.argv = ["pytest"] + list(request.get("args") or [])
        exit_code = int(pytest.main(list(request.get("args") or [])))
    except BaseException as error:  # pragma: no cover - pytest handles its own errors
        sys.stderr.write("tenet mutation worker: %r\n" % (error,))
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
            os.write(result_w, json.dumps({"loaded": finder.loaded}).encode())
        finally:
            os._exit(exit_code)


def _wait(pid, timeout):
    """The child's wait status, or None when it outlived the timeout."""
    deadline = time.monotonic() + timeout
    pidfd = None
    if hasattr(os, "pidfd_open"):
        try:
            pidfd = os.pidfd_open(pid)
        except OSError:
            pidfd = None
    try:
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                return status
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            if pidfd is not None:
                select.select([pidfd], [], [], remaining)
            else:
                time.sleep(min(0.01, remaining))
    finally:
        if pidfd is not None:
            os.close(pidfd)


def _kill_group(pid):
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:
        pass


def _read_available(fd):
    """What the child wrote before it exited. Non-blocking: a process the tests forked (and that
    escaped the kill) may still hold the pipe open, and must not hang the worker."""
    os.set_blocking(fd, False)
    chunks = []
    while True:
        try:
            chunk = os.read(fd, 65536)
        except BlockingIOError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks)


def run_one(request, target, log):
    started = time.monotonic()
    result = {"id": request.get("id"), "loaded": False}
    source = base64.b64decode(request["source"]) if request.get("source") is not None else None
    code = None
    if source is not None:
        try:
            code = compile(source, target, "exec", dont_inherit=True)
        except (SyntaxError, ValueError) as error:
            result.update(status="invalid", message="%s: %s" % (type(error).__name__, error), durationMs=0)
            return result
    log.seek(0)
    log.truncate()
    result_r, result_w = os.pipe()
    sys.stdout.flush()
    pid = os.fork()
    if pid == 0:
        os.close(result_r)
        _run_child(request, code, source, target, log, result_w)
    os.close(result_w)
    status = _wait(pid, float(request.get("timeout") or 3600))
    if status is None:
        _kill_group(pid)
        os.waitpid(pid, 0)
        result.update(status="timeout")
    else:
        # Whatever the tests started and left running goes with the child.
        _kill_group(pid)
        if os.WIFSIGNALED(status):
            result.update(status="crashed", signal=signal.Signals(os.WTERMSIG(status)).name, exitCode=None)
        else:
            exit_code = os.WEXITSTATUS(status)
            result["exitCode"] = exit_code
            result["status"] = "passed" if exit_code == 0 else "failed" if exit_code in (1, 2) else "error"
    try:
        result.update(json.loads(_read_available(result_r).decode() or "{}"))
    except ValueError:
        pass
    os.close(result_r)
    result["durationMs"] = int((time.monotonic() - started) * 1000)
    if request.get("output") or result["status"] in ("error", "crashed"):
        log.flush()
        size = log.seek(0, os.SEEK_END)
        log.seek(max(0, size - _OUTPUT_TAIL))
        result["output"] = log.read().decode("utf-8", "replace")
    return result


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 2 or argv[0] != "--target":
        sys.stderr.write("usage: python -m _tenet_mutation --target PATH\n")
        return 2
    target = argv[1]
    parent = os.environ.get("TENET_PARENT_PID")
    if parent:
        _die_with_parent(int(parent))
    # The protocol channel is this process's stdout; children write to the log instead.
    out = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8")
    import pytest  # noqa: F401 - imported once here, inherited by every child

    with tempfile.TemporaryFile() as log:
        for line in sys.stdin:
            if not line.strip():
                continue
            request = json.loads(line)
            out.write(MARK + json.dumps(run_one(request, target, log)) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
