"""What pytest caches between tests, as THM's plugin (_tenet_thm) needs to know it.

A module-, class- or session-scoped fixture (xunit setup_module and unittest's setUpClass are such
fixtures too) runs once, in the first test that needs it; later tests get its cached value, or
its cached error re-raised without running anything. So when such a fixture calls the target,
only that first test reaches the target: the later ones are reported ``reached: false`` with
``failsThrough``, the fixture through which the blank target fails them.

In twin mode the parent runs the original code, so its fixture caches hold original values. For
a later test it cannot fork a twin that would see the blank's cached error; instead the twin of
the test that set the fixture up reports how the fixture ended blank, and a later test's blank
outcome follows from that as pytest would make it (skip marks first, then the error at setup,
which an xfail mark turns into xfailed). What cannot be decided so is run blank again.
"""

import sys


def scope_of(fixturedef):
    scope = getattr(fixturedef, "scope", "function")
    return getattr(scope, "value", scope)  # pytest 8 has a Scope enum underneath


def closure(item):
    """The fixture definitions a test uses, in pytest's setup order (wider scopes first)."""
    info = getattr(item, "_fixtureinfo", None)
    defs = getattr(info, "name2fixturedefs", {})
    for name in getattr(item, "fixturenames", ()):
        for fixturedef in defs.get(name, ()):
            yield fixturedef


def cached_through(item, set_up_here, fixture_chains):
    """The first wider fixture of this test whose setup called the target in an earlier test (it
    was not set up in this one), or None."""
    for fixturedef in closure(item):
        key = id(fixturedef)
        if key in fixture_chains and key not in set_up_here and scope_of(fixturedef) != "function":
            return fixturedef
    return None


def entry_name(fixturedef, fixture_chains):
    """`file::function` of the fixture (for an xunit or unittest one, the user's setup method)."""
    recorded = fixture_chains.get(id(fixturedef))
    if recorded and recorded[0]:
        return recorded[0][0]["name"]
    func = getattr(fixturedef, "func", None)
    code = getattr(func, "__code__", None)
    if code is None:
        return str(getattr(fixturedef, "argname", "?"))
    import _tenet_probe

    return _tenet_probe.display_path(code.co_filename) + "::" + getattr(code, "co_qualname", code.co_name)


def cache_key(fixturedef, item):
    """Which cached instance of a wider fixture a test gets: the fixture, the node of its scope
    (module, class, package or session) and its parameter."""
    scope = scope_of(fixturedef)
    nodeid = item.nodeid.split("::")
    if scope == "module":
        node = nodeid[0]
    elif scope == "class":
        node = "::".join(nodeid[:-1])
    elif scope == "package":
        node = nodeid[0].rsplit("/", 1)[0] if "/" in nodeid[0] else ""
    else:
        node = scope
    params = getattr(getattr(item, "callspec", None), "params", {})
    param = repr(params[fixturedef.argname]) if fixturedef.argname in params else ""
    where = getattr(fixturedef, "baseid", "")
    return "%s::%s@%s %s[%s]" % (where, fixturedef.argname, scope, node, param)


def _cached_error(fixturedef):
    cached = getattr(fixturedef, "cached_result", None)
    if not cached or len(cached) < 3 or cached[2] is None:
        return None
    for part in cached[2]:  # pytest 7: sys.exc_info(); pytest 8+: (exception, traceback)
        if isinstance(part, BaseException):
            return part
    return None


def fixture_outcomes(item, set_up_here, failure_text):
    """In a blank twin: how each wider fixture set up during its test ended, by id: the error
    (message, report text, exception type) or "ok"."""
    found = {}
    for fixturedef in closure(item):
        if id(fixturedef) not in set_up_here or scope_of(fixturedef) == "function":
            continue
        if getattr(fixturedef, "cached_result", None) is None:
            continue
        error = _cached_error(fixturedef)
        if error is None:
            found[str(id(fixturedef))] = "ok"
            continue
        message, text = failure_text(type(error), error, error.__traceback__)
        kind = type(error)
        found[str(id(fixturedef))] = {
            "message": message,
            "longrepr": text,
            "excType": kind.__module__ + ":" + kind.__qualname__,
        }
    return found


def _resolve(name):
    module, _, qualname = name.partition(":")
    found = sys.modules.get(module)
    for part in qualname.split("."):
        found = getattr(found, part, None)
    return found if isinstance(found, type) else None


def blank_outcome(item, parent_outcome, parent_phase, error):
    """A later test's outcome in a blank run, where `error` (from fixture_outcomes) is re-raised at
    its setup; None when that cannot be decided here (tenet then runs the test blank)."""
    try:
        from _pytest.skipping import evaluate_skip_marks, evaluate_xfail_marks

        skipped = evaluate_skip_marks(item)
        xfailed = evaluate_xfail_marks(item)
    except Exception:
        return None
    if skipped:  # skip marks are evaluated before any fixture is set up
        return {"outcome": "skipped", "phase": "setup", "message": skipped.reason, "longrepr": ""}
    runxfail = getattr(item.config.option, "runxfail", False)
    xfail = xfailed if xfailed and not runxfail else None
    if xfail is not None and not xfail.run:
        return {"outcome": "xfailed", "phase": "setup", "message": xfail.reason, "longrepr": ""}
    if parent_phase == "setup" and parent_outcome != "passed":
        return None  # something else stopped the setup: before or after the fixture? a blank run decides
    if xfail is not None:
        raises = xfail.raises
        kind = _resolve(error["excType"]) if raises is not None else None
        if raises is not None and kind is None:
            return None
        if raises is None or issubclass(kind, raises):
            return {"outcome": "xfailed", "phase": "setup", "message": xfail.reason, "longrepr": ""}
    return {"outcome": "error", "phase": "setup", "message": error["message"], "longrepr": error["longrepr"]}
