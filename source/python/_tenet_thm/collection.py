"""Collection: a module's import is a context of its own (the target called at import time)."""

import pytest

import _tenet_probe as probe

from .channel import _emit
from .entries import _Context
from .reports import _report_text
from .scope import _normalize
from .setting import _hookwrapper, _state

_collect_contexts = {}  # collector node id -> context, for module-level calls of the target
_items_collected = 0  # tests collected so far: the "collecting" events carry it, for the progress line

def pytest_itemcollected(item):
    global _items_collected
    _items_collected += 1


@_hookwrapper
def pytest_make_collect_report(collector):
    previous = _state.ctx
    ctx = _Context("collect", collector.nodeid)
    path = getattr(collector, "path", None)
    if path is not None:
        ctx.module_file = probe._realpath(str(path))
    _state.ctx = ctx
    # Importing a test module runs its top level, which may loop forever (the target called at
    # import time): tenet times each module's collection like a test.
    module = isinstance(collector, pytest.Module)
    if module:
        _emit({"e": "collecting", "nodeid": _normalize(collector.nodeid), "items": _items_collected})
    try:
        yield
    finally:
        if module:
            _emit({"e": "collectingdone", "nodeid": _normalize(collector.nodeid)})
        if ctx.chain is not None:
            _collect_contexts[collector.nodeid] = ctx
        _state.ctx = previous


def pytest_collectreport(report):
    if report.failed:
        message, text = _report_text(report)
        ctx = _collect_contexts.pop(report.nodeid, None)
        _emit({
            "e": "collecterror",
            "nodeid": _normalize(report.nodeid),
            "message": message,
            "longrepr": text,
            "chain": ctx.chain if ctx else None,
            "entryKind": ctx.entry_kind if ctx else None,
        })
