"""The differential check's oracle: plain pytest, observed, never steered.

Loaded with ``-p oracle_plugin``. It writes what each test's phases gave, one outcome per node id
(as tenet reports it: failed in the call, error in setup or teardown, skipped, xfailed, xpassed,
passed), and each module that failed to import, to the JSON file QA_ORACLE_OUT. Node ids are
relative to QA_ORACLE_ROOT (the repository), as tenet's are, whatever rootdir pytest chose. With
QA_ORACLE_MARK, it also notes the tests and modules whose failure report says a RuntimeError with
that text was raised (the target's body raises it: the failure came from a call of the target).
"""

import json
import os

_outcomes = {}
_marked = set()
_prefix = ""
_MARK = os.environ.get("QA_ORACLE_MARK")


def _note_mark(nodeid, report):
    # As the traceback states a raised exception (`RuntimeError: MARK`), not as a repr shows one: a
    # report of a failed assertion shows an object whose __repr__ raised as
    # `<[RuntimeError('MARK') raised in repr()] ...>`, and that call was not the test's.
    if _MARK and report.failed and "RuntimeError: " + _MARK in (getattr(report, "longreprtext", None) or ""):
        _marked.add(nodeid)


def pytest_configure(config):
    global _prefix
    root = os.path.realpath(os.environ["QA_ORACLE_ROOT"])
    rootdir = os.path.realpath(str(config.rootpath))
    if rootdir != root and rootdir.startswith(root + os.sep):
        _prefix = os.path.relpath(rootdir, root).replace(os.sep, "/") + "/"


def _rank(outcome):
    return ["passed", "skipped", "xpassed", "xfailed", "error", "failed"].index(outcome)


def pytest_runtest_logreport(report):
    nodeid = _prefix + report.nodeid
    _note_mark(nodeid, report)
    if getattr(report, "wasxfail", None) is not None and (report.skipped or report.when == "call"):
        outcome = "xfailed" if report.skipped else "xpassed"
    elif report.failed:
        outcome = "failed" if report.when == "call" else "error"
    elif report.skipped:
        outcome = "skipped"
    else:
        outcome = "passed"
    previous = _outcomes.get(nodeid)
    # The first failure decides (a failed call followed by a failed teardown stays "failed").
    if previous is None or (previous in ("passed", "skipped", "xpassed") and _rank(outcome) > _rank(previous)):
        _outcomes[nodeid] = outcome


def pytest_collectreport(report):
    if report.failed and report.nodeid:
        _outcomes[_prefix + report.nodeid] = "collection"
        _note_mark(_prefix + report.nodeid, report)


def pytest_sessionfinish(session, exitstatus):
    with open(os.environ["QA_ORACLE_OUT"], "w", encoding="utf-8") as handle:
        json.dump({"exitstatus": int(exitstatus), "outcomes": _outcomes, "marked": sorted(_marked)}, handle)
