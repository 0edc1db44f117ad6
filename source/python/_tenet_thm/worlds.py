"""Lanes and worlds: the collected tests run in forked lanes, and, in mode worlds, both of
benchmark mode's worlds from one collection."""

import os

import pytest

import _tenet_lanes as lanes
import _tenet_probe as probe

from . import channel
from .channel import _emit
from .scope import _normalize, _select_shard, _shard_units
from .setting import _WORLDS, _state

_LANES_AUTO = (os.environ.get("TENET_LANES") or "").startswith("auto:")
_LANES = int((os.environ.get("TENET_LANES") or "0").replace("auto:", ""))
_TESTS_PER_LANE = 10  # with auto, fewer tests than this per lane are not worth a lane


def _lane_count(items):
    return max(1, min(_LANES, len(items) // _TESTS_PER_LANE)) if _LANES_AUTO else max(1, _LANES)


def _enter_world(world):
    """TENET_MODE=worlds, in a lane: from here on the target is blank, or its original code."""
    channel.world = world
    _state.mode = "blank" if world == "blank" else "record"
    os.environ["TENET_MODE"] = _state.mode  # and in the subprocesses of its tests


@pytest.hookimpl(tryfirst=True)
def pytest_runtestloop(session):
    """TENET_LANES=n: run the collected tests in up to n forked lanes; this process only waits.

    TENET_MODE=worlds: both of benchmark mode's worlds from this one collection (made on the
    original code). Lanes forked from it run every test with the target blank; then lanes forked
    from it again, as it was collected, run the tests that failed blank on the original code. A
    process per world and no second collection; nothing a test of one world did is seen by the
    other's.
    """
    _state.on_start_hit = None  # the start is over: a call outside a test now is a teardown's or a hook's
    if _LANES < 2 and not _WORLDS:
        return None
    items = list(session.items)
    count = _lane_count(items)
    if (count == 1 and not _WORLDS) or not probe._may_fork():
        # One lane, run here. (Forking beside other threads may deadlock: then this process runs
        # lane 0, and tenet runs the others as shards of their own, and the original world.)
        _emit({"e": "lanes", "started": [0], "count": count})
        channel.lane = 0
        if _WORLDS:
            _enter_world("blank")
        session.items[:] = _select_shard(items, 0, count)
        return None
    if _run_lanes(session, items, count, "blank" if _WORLDS else None) or not _WORLDS:
        return True
    failed = lanes.noted()
    again = [item for item in items if item.nodeid in failed]
    if again:
        _run_lanes(session, again, _lane_count(again), "original")
    return True


def _run_lanes(session, items, count, world):
    """Forks `count` lanes that share `items`; True in a lane once its tests ran, False in this
    process once every lane ended."""
    # Units small enough to balance the lanes, taken in the run's order (every lane computes the
    # same list), so each lane runs its tests in pytest's order.
    units = _shard_units(items, count * 4)
    tag = {"world": "original"} if world == "original" else {}
    _emit(dict({"e": "lanes", "started": list(range(count)), "count": count, "tests": [_normalize(item.nodeid) for item in items]}, **tag))
    lane = lanes.fork(count, lambda index, code, signal: _emit(dict({"e": "laneexit", "lane": index, "exitCode": code, "signal": signal}, **tag)))
    if lane is None:
        return False
    channel.lane = lane
    if world:
        _enter_world(world)
    lanes.settle(session.config)
    lanes.run(session, units, lambda unit: _emit({"e": "unit", "tests": [_normalize(item.nodeid) for item in unit]}))
    return True
