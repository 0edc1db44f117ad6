"""What the hook checks and guards, and what stands in pytest for tenet's channel: the channel
object the plugin writes through, the plugin that takes the harness's snapshot and reports a skip,
xfail or exit raised through the submission, and the guarded harness modules."""

import os
import sys

from .rules import _is_harness_module


class JudgedChannel:
    """Stands in for the plugin's channel: each event goes to the hook, which signs it."""

    def write(self, text):
        sys.audit("tenet.emit", text)

    def flush(self):
        pass

    def close(self):
        pass

    def fileno(self):
        raise OSError("the judged channel has no descriptor")


class JudgePlugin:
    """What the hook checks at each outcome: the harness's functions and classes, and pytest's
    hooks, as they were once every plugin and conftest was loaded (pytest's own plugins patch
    its classes as they configure). And a skip, xfail or exit raised through the submission is a
    trip (an xfail would count as a pass)."""

    def pytest_collection_finish(self, session):
        hooks = []
        for name in (
            "pytest_runtest_protocol",
            "pytest_runtest_setup",
            "pytest_runtest_call",
            "pytest_runtest_teardown",
            "pytest_runtest_makereport",
            "pytest_runtest_logreport",
            "pytest_runtest_logstart",
            "pytest_runtest_logfinish",
            "pytest_pyfunc_call",
            "pytest_report_teststatus",
            "pytest_assertrepr_compare",
            "pytest_sessionfinish",
        ):
            caller = getattr(session.config.hook, name, None)
            # pluggy keeps a hook's implementations in _hookimpls (1.1 and later) or in two lists (1.0).
            for attribute in ("_hookimpls", "_nonwrappers", "_wrappers"):
                impls = getattr(caller, attribute, None)
                if isinstance(impls, list):
                    hooks.append((caller, name, attribute, tuple(impls)))
        sys.audit("tenet.guard", harness(), tuple(hooks))

    def pytest_runtest_makereport(self, item, call):
        import pytest

        excinfo = call.excinfo
        outcomes = {pytest.skip.Exception: "skip", pytest.xfail.Exception: "xfail", pytest.exit.Exception: "exit"}
        called = next((name for kind, name in outcomes.items() if excinfo and isinstance(excinfo.value, kind)), None)
        if called is None:
            return
        first, _, last = (os.environ.get("TENET_JUDGE_LINES") or "0-0").partition("-")
        target = os.path.realpath(os.environ.get("TENET_TARGET_FILE", ""))
        tb = excinfo.tb
        while tb is not None:
            code = tb.tb_frame.f_code
            if os.path.realpath(code.co_filename) == target and int(first) <= code.co_firstlineno <= int(last or first):
                root = os.path.realpath(os.environ.get("TENET_ROOT") or os.getcwd())
                shown = os.path.relpath(os.path.realpath(code.co_filename), root)
                sys.audit("tenet.trip", "pytest." + called, shown, tb.tb_lineno)
                return
            tb = tb.tb_next


# What decides an outcome: tenet's plugin, pytest's running, reporting, skipping and asserting,
# pluggy's calling of hooks, unittest's TestCase, the builtins. Checked after every test (about
# 0.1 ms); the rest of pytest cannot change an outcome tenet reads.
_DECIDING = (
    "__main__",
    "builtins",
    "unittest.case",
    "pytest",
    "_pytest.runner",
    "_pytest.reports",
    "_pytest.python",
    "_pytest.python_api",
    "_pytest.raises",
    "_pytest.unittest",
    "_pytest.outcomes",
    "_pytest.skipping",
    "_pytest.nodes",
    "_pytest.main",
    "_pytest.doctest",
    "_pytest.fixtures",
    "_pytest.assertion.rewrite",
    "_pytest.assertion.util",
    "_pytest._code.code",
    "pluggy._hooks",
    "pluggy._callers",
    "pluggy._manager",
    "pluggy._result",
)


def harness():
    """The functions and classes of what decides an outcome, as (mapping, names, values), with
    their classes' own (methods, properties): taken once every plugin is loaded."""
    import types

    kinds = (types.FunctionType, types.BuiltinFunctionType, type, classmethod, staticmethod, property)
    seen = []

    def taken(mapping):
        entries = [(k, v) for k, v in list(mapping.items()) if isinstance(v, kinds)]
        return (mapping, tuple(k for k, _ in entries), tuple(v for _, v in entries))

    names = [name for name in sys.modules if name.startswith("_tenet")] + list(_DECIDING)
    for module in (sys.modules.get(name) for name in names):
        if module is None:
            continue
        seen.append(taken(module.__dict__))
        for value in seen[-1][2]:
            if isinstance(value, type) and getattr(value, "__module__", None) == module.__name__:
                seen.append(taken(type.__dict__["__dict__"].__get__(value)))
    return tuple(seen)


class GuardedModule(type(sys)):
    """A harness module whose attributes cannot be set or deleted unseen (the hook decides who did)."""

    def __setattr__(self, name, value):
        sys.audit("tenet.module.setattr", self.__name__, name)
        super().__setattr__(name, value)

    def __delattr__(self, name):
        sys.audit("tenet.module.setattr", self.__name__, name)
        super().__delattr__(name)


def guard_harness_modules():
    for name, module in list(sys.modules.items()):
        if module is not None and (_is_harness_module(name) or name == "__main__") and type(module) is type(sys):
            module.__class__ = GuardedModule
