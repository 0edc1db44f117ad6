"""Each running test's state: its outcome over its phases, and the failure texts THM builds."""

import time

from .reports import _report_text

class _TestState:
    def __init__(self, nodeid, location):
        self.nodeid = nodeid
        self.location = location
        self.started = time.monotonic()
        self.outcome = "passed"
        self.phase = None
        self.message = ""
        self.longrepr = ""
        self.context = None
        self.failures = {}  # phase -> (message, text) from the raw exception
        self.stops = {}  # phase -> where its exception was raised (see _stopped_at)
        self.stopped_at = None

    def add(self, report):
        if getattr(report, "wasxfail", None) is not None and (report.skipped or report.when == "call"):
            # xfail marks turn a failure in any phase into xfailed (an error in setup too).
            if self.outcome in ("passed", "skipped"):
                self.outcome = "xfailed" if report.skipped else "xpassed"
                self.phase = report.when
        elif report.failed and self.outcome not in ("failed", "error"):
            self.outcome = "failed" if report.when == "call" else "error"
            self.phase = report.when
            self.message, self.longrepr = self.failures.get(report.when) or _report_text(report)
            self.stopped_at = self.stops.get(report.when)
        elif report.skipped and self.outcome == "passed":
            self.outcome = "skipped"
            self.phase = report.when
            self.message, _ = _report_text(report)

    def result(self):
        return {
            "outcome": self.outcome,
            "phase": self.phase,
            "message": self.message,
            "longrepr": self.longrepr,
            "stoppedAt": self.stopped_at,
        }


_tests = {}
_items = {}


def _quick_repr(item):
    """Stands in for pytest's own failure report of an item, which nobody reads here: THM reads
    the text built above from the raw exception (pytest's costs more, on deep tracebacks most)."""

    def represent(excinfo, style=None):
        state = _tests.get(item.nodeid)
        texts = list(state.failures.values()) if state is not None else []
        return (texts[-1][1] or texts[-1][0]) if texts else excinfo.exconly()

    return represent
