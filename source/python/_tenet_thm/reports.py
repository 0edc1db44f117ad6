"""Failure reports: pytest's, and the shorter one THM builds from the raw exception."""

import linecache
import traceback

import _tenet_probe as probe
from _tenet_probe.names import _frame_record

from .setting import _state

_MAX_TEXT = 8000

def _report_text(report):
    longrepr = getattr(report, "longrepr", None)
    if longrepr is None:
        return "", ""
    crash = getattr(longrepr, "reprcrash", None)
    message = getattr(crash, "message", None)
    text = _shown_lines(getattr(report, "longreprtext", None) or str(longrepr))
    if message is None:
        if isinstance(longrepr, tuple) and len(longrepr) == 3:  # skip reports: (file, line, reason)
            message = str(longrepr[2])
        else:
            message = text.strip().splitlines()[-1] if text.strip() else ""
    if len(text) > _MAX_TEXT:
        text = text[: _MAX_TEXT // 2] + "\n[... output cut by tenet ...]\n" + text[-_MAX_TEXT // 2 :]
    return message[:2000], text


def _shown_lines(text):
    """pytest's own report (a module that failed to import): the target's line as _shown_source
    gives it, without the carets Python put under the line as it was."""
    if probe.STATEMENT not in text:
        return text
    shown = []
    after_target = False
    for line in text.split("\n"):
        if after_target and line.strip() and set(line.strip()) <= set("^~"):
            after_target = False
            continue
        after_target = probe.STATEMENT in line
        if after_target:
            line = line[: len(line) - len(line.lstrip())] + _shown_source(line.strip())
        shown.append(line)
    return "\n".join(shown)


def _hidden(frame):
    return (
        frame.f_locals.get("__tracebackhide__")
        or frame.f_globals.get("__tracebackhide__")
        or frame.f_globals.get("__unittest")
    )


def _shown_source(source):
    """The target's line as the blank has it: no probe, and where the target acts as the blank (a
    twin, the blank world) no original code: the report goes into the agent's prompt, and in
    benchmark mode the original body is the answer it must not see."""
    if probe.STATEMENT not in source:
        return source
    if _state.in_child or _state.mode == "blank":
        return "raise NotImplementedError"
    return source.replace(probe.STATEMENT + "; ", "").replace(probe.STATEMENT, "")


def _failure_text(excinfo):
    return _failure_text_of(excinfo.type, excinfo.value, excinfo.tb)


def _failure_text_of(etype, value, tb):
    """A short, pytest-like failure report: the frames from the test on, and the exception.

    Built here from the raw traceback with linecache only: pytest's own short style parses the
    source of every frame, which costs a tenth of a second per failure, and its native style keeps
    pytest's internals.
    """
    frames = []
    while tb is not None:
        frames.append((tb.tb_frame, tb.tb_lineno))
        tb = tb.tb_next
    start = 0
    while start < len(frames) - 1 and probe.is_framework(frames[start][0].f_code.co_filename):
        start += 1
    lines = []
    for frame, lineno in frames[start:]:
        if _hidden(frame):
            continue
        code = frame.f_code
        lines.append("%s:%d: in %s" % (probe.display_path(code.co_filename), lineno, code.co_name))
        source = _shown_source(linecache.getline(code.co_filename, lineno).strip())
        if source:
            lines.append("    " + source)
    exception = "".join(traceback.format_exception_only(etype, value)).rstrip()
    message = exception.splitlines()[0] if exception else etype.__name__
    lines.extend("E   " + line for line in exception.splitlines())
    if len(lines) > 80:
        lines = lines[:20] + ["[... %d lines cut by tenet ...]" % (len(lines) - 60)] + lines[-40:]
    text = "\n".join(lines)
    if len(text) > _MAX_TEXT:
        text = text[: _MAX_TEXT // 2] + "\n[... output cut by tenet ...]\n" + text[-_MAX_TEXT // 2 :]
    return message[:2000], text


def _stopped_at(tb):
    """Where a failure was raised, named as a chain names a frame: the innermost frame of the
    repository's code (else of any code but pytest's and tenet's) that pytest does not hide. A
    test that failed without reaching the target is shown with it (it stopped in another stub,
    in a helper of the repository's)."""
    found = None
    while tb is not None:
        frame = tb.tb_frame
        filename = frame.f_code.co_filename
        if not _hidden(frame) and not probe.is_framework(filename):
            if found is None or not probe.outside_workspace(filename) or probe.outside_workspace(found[0].f_code.co_filename):
                found = (frame, tb.tb_lineno)
        tb = tb.tb_next
    if found is None:
        return None
    return {"name": _frame_record(found[0])["name"], "line": found[1]}
