"""What may start a chain: the test function, its fixtures, a collector's setup; and what runs now (_Context)."""

import inspect

import pytest

import _tenet_probe as probe

from .channel import _emit
from .scope import _normalize
from .setting import _FORK, _WORLDS, _state

def _code_of(obj):
    obj = getattr(obj, "__func__", obj)
    try:
        obj = inspect.unwrap(obj)
    except ValueError:
        pass
    obj = getattr(obj, "__func__", obj)
    return getattr(obj, "__code__", None)


_XUNIT = (
    "setUp", "tearDown", "setUpClass", "tearDownClass", "asyncSetUp", "asyncTearDown",
    "setup_method", "teardown_method", "setup_class", "teardown_class", "setup", "teardown",
)
_XUNIT_MODULE = ("setup_module", "teardown_module", "setUpModule", "tearDownModule",
                 "setup_function", "teardown_function")


def _collected_function(item):
    """The test function as pytest collected it, from its class or module: a plugin may have put a
    runner of its own in ``item.obj`` since. pytest-trio does, at the call: a wrapper whose
    coroutine starts the test in a trio task of its own, so the test's frame is under trio's
    scheduler and under no frame of ``item.obj`` (pytest-asyncio's wrapper keeps ``__wrapped__``,
    which ``_code_of`` follows)."""
    name = getattr(item, "originalname", None)
    holder = getattr(item, "cls", None) or getattr(item, "module", None)
    if not name or holder is None:
        return None
    try:
        return inspect.getattr_static(holder, name, None)
    except Exception:
        return None


def _entry_codes(item):
    """Code objects that may start a chain for this item: the test function, then fixtures."""
    test_codes, fixture_codes = set(), set()
    for obj in (getattr(item, "obj", None), _collected_function(item)):
        code = _code_of(obj)
        if code is not None:
            test_codes.add(code)
    info = getattr(item, "_fixtureinfo", None)
    for defs in getattr(info, "name2fixturedefs", {}).values():
        for fixturedef in defs:
            code = _code_of(getattr(fixturedef, "func", None))
            # pytest's own fixtures that call xunit methods (setup_module, setUpClass) are not
            # entries: the methods they call are, below.
            if code is not None and not probe.is_framework(code.co_filename):
                fixture_codes.add(code)
    holders = [(getattr(item, "cls", None), _XUNIT), (getattr(item, "module", None), _XUNIT_MODULE)]
    for holder, names in holders:
        for name in names:
            code = _code_of(getattr(holder, name, None)) if holder is not None else None
            if code is not None and not probe.is_framework(code.co_filename):
                fixture_codes.add(code)
    return test_codes, fixture_codes


_state.entry_codes = _entry_codes


class _Context:
    """What is running now: one test item (all its phases) or a collector."""

    def __init__(self, kind, nodeid, item=None):
        self.kind = kind
        self.nodeid = nodeid
        self.item = item
        self.chain = None
        self.entry_kind = None
        self.fixtures = []  # fixture definitions being set up right now, innermost last
        self.set_up = set()  # ids of the fixture definitions whose setup ran during this test
        self.hit_fixture = None  # the fixture being set up at the first call, if any
        self.module_file = None  # for a module collector: the module's real path
        self.phase = None  # "setup", "call" or "teardown" while the test runs
        self.fork = None  # twin mode: the blank twin waiting for this test to end
        self.needs_blank = False  # twin mode: reached where no twin could fork (another thread)
        self.collector_setup = None  # (node id, chain entry) of the collector whose own setup made the first call


def _on_hit(ctx, chain, entry_kind):
    if ctx.kind == "test" and ctx.phase == "setup" and ctx.hit_fixture is None:
        collector = _collector_being_set_up()
        if collector is not None:
            ctx.collector_setup = (collector.nodeid, chain[0]["name"] if chain else "?")
    if ctx.kind == "test":
        # Reported at once: if the test then hangs or kills its process, tenet still knows the chain.
        _emit({"e": "hit", "nodeid": _normalize(ctx.nodeid), "chain": chain, "entryKind": entry_kind})
    elif _FORK or _WORLDS:
        # Collected on the original code, once for both worlds: tenet re-runs this module blank.
        _emit({"e": "collecthit", "nodeid": _normalize(ctx.nodeid), "chain": chain, "entryKind": entry_kind})


_state.on_hit = _on_hit

# A collector whose own setup called the target: pytest's Package.setup runs the package's
# setup_module and looks setUpModule and pytest_plugins up on its __init__ (which a module
# __getattr__ answers: jsonschema's). pytest sets a collector up once, in the first test under it;
# blank, that setup fails, and pytest fails every later test under it with the same error, without
# a call. Like a wider fixture's, only the first test reaches the target (the run keeps the first
# in the whole run's order); the others fail through it. Twin mode's parent set the collector up
# on the original code, so its later tests would fork no twin, or one that starts past the setup
# and passes: they run blank in a pass of their own instead. A setup that went on blank (it caught
# the error) fails no later test: it is not noted.
_set_up_through_target = {}  # collector node id -> the entry of the chain of its failed setup's call


def _collector_being_set_up():
    """The collector whose setup() is on the stack, or None (the call comes from a test or fixture)."""
    frame = probe._getframe(1)
    while frame is not None:
        if frame.f_code.co_name == "setup" and issubclass(type(frame.f_locals.get("self")), pytest.Collector):
            return frame.f_locals["self"]
        frame = frame.f_back
    return None


def _collector_set_up_through_target(item):
    """The collector above this test whose setup called the target in an earlier test, or None."""
    for node in item.listchain():
        if node.nodeid in _set_up_through_target and node is not item:
            return node.nodeid
    return None


def _on_start_hit(chain):
    """The target was called outside every test and collector before the tests run (a
    conftest.py and what it imports, a conftest's collection hook): with its body blank or a stub,
    such a call can stop pytest before it reports anything, and then this is what tells tenet why;
    a run that collects on the original code learns that its collection is no blank world's.
    Reported once, and no more once the tests run (see pytest_runtestloop)."""
    _emit({"e": "starthit", "chain": chain})


_state.on_start_hit = _on_start_hit
