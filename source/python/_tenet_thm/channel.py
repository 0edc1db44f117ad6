"""The channel to tenet: one JSON line per event, after MARK, on a duplicate of the original stdout."""

import atexit
import json
import os
import signal
import sys

import _tenet_lanes as lanes

from .setting import _state

MARK = "\x1etenet:"

# The channel: a duplicate of fd 1 made before pytest's fd-level capture replaces fd 1.
try:
    _out = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8", errors="replace")
    atexit.register(_out.close)
except OSError:  # pragma: no cover - no stdout at all
    _out = sys.__stdout__


lane = None  # in a lane (TENET_LANES): its index
world = None  # TENET_MODE=worlds, in a lane: "blank" or "original"


def _emit(event):
    if _state.in_child:
        return  # the blank twin reports through its own pipe, never here
    if world == "original":
        event["world"] = "original"
    if lane is None:
        _out.write(MARK + json.dumps(event, default=str) + "\n")
        _out.flush()
        return
    event["lane"] = lane
    lanes.write_line(_out.fileno(), (MARK + json.dumps(event, default=str) + "\n").encode("utf-8", "replace"))


def _die_with_parent():
    """Linux: if tenet is killed outright (SIGKILL), take this pytest process down with it."""
    parent = os.environ.get("TENET_PARENT_PID")
    if not parent or not sys.platform.startswith("linux") or os.getppid() != int(parent):
        return  # not started by tenet itself (a subprocess of a test inherits the variable)
    try:
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except Exception:
        pass


_die_with_parent()
