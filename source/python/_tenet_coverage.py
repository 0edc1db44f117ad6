"""Line and branch coverage of ONE function by one pytest run, with no third-party package.

    python -m _tenet_coverage --file PATH --qualname QUALNAME [--line N] --out RESULT.json -- PYTEST_ARGS...

``--line`` is the definition's first line (decorators included) when two definitions share the
qualname. pytest runs in this process (``pytest.main``) under ``sys.settrace``; only frames of the
function's own code objects get a local tracer, so the rest of the run pays one cheap check per
call. Python 3.8+ (``sys.monitoring`` is not used, so 3.12+ works the same way).

What is measured, exactly:

Executable lines
    Every line the compiler attributes instructions to (``co_lines``, ``dis.findlinestarts`` before
    3.10) in the function's code object and the code objects nested in it (inner functions,
    lambdas, comprehensions, classes), from the first line of the body to the last line of the
    definition: the ``def`` line and decorators are not the body. A line is covered when a
    ``line`` trace event fired for it in one of those frames.

Arcs
    Line-to-line transitions seen in each frame of those code objects; an exit from the frame
    (``return``, or a ``yield``) is the arc to ``-first_line`` of its code, as coverage.py writes it.
    A transition made by an exception (raise → handler) is not an arc: it would look like a branch
    outcome that no condition decided. ``StopIteration`` ending a ``for`` loop is the exception.

Branches (from the AST, not from bytecode jumps, so the count is the same on every Python version)
    Each branch point has two outcomes, each an arc from the lines of its condition:
      if / elif      true → the first line of its body; false → the first line of ``else``/the
                     next ``elif``, or, without one, any other line (or leaving the function)
      while          same as ``if``; a constant test (``while True``) is not a branch
      for, async for an iteration → the first line of the body; exhausted → ``else`` or any other line
      case           matched → the first line of the case's body; not matched → the next case, or
                     any other line; an irrefutable ``case _:`` / ``case name:`` without a guard is
                     not a branch
    Conditions inside one line — ``and``/``or``, ``x if c else y``, comprehension ``if`` — are
    not branch points: line events cannot tell their outcomes apart. Neither is a branch point
    whose outcome starts on the condition's own line (``if x: return y``), for the same reason.
    ``try``/``except`` is covered by the handler's lines, not counted as a branch.

The JSON written to ``--out`` (a file, or ``-``: one line on stdout, after pytest's output, prefixed
with MARK so it can be told apart from it; that needs no file shared with the sandbox) has ``lines`` (executable), ``hit``, ``branches`` (each with its
``line``, ``kind`` and two ``outcomes`` ``{"label", "to", "taken"}``, ``to`` null meaning "any other
line"), ``arcs`` (observed, per code object), ``tests`` (outcome counts), ``exitCode`` (pytest's)
and ``warnings``. Subprocesses started by the tests are not traced.
"""

import argparse
import ast
import dis
import json
import os
import sys
import threading

MARK = "\x1etenet:"

def _real(path):
    try:
        return os.path.realpath(path)
    except (OSError, ValueError):
        return path


# ---------------------------------------------------------------------------------------------
# Finding the function and its code objects


def first_line(node):
    """A definition's first line with its decorators, which is what ``co_firstlineno`` holds (3.8+)."""
    decorators = getattr(node, "decorator_list", None) or []
    return min([node.lineno] + [d.lineno for d in decorators])


def scope_key(node):
    """How a function or class node and its code object are matched: (first line, name)."""
    if isinstance(node, ast.Lambda):
        return (node.lineno, "<lambda>")
    return (first_line(node), node.name)


def code_key(code):
    return (code.co_firstlineno, code.co_name)


_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)


def qualified_functions(tree):
    """(qualname, node) for every function, named as Python's ``__qualname__``."""
    found = []

    def walk(node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, _DEFS):
                name = prefix + child.name
                found.append((name, child))
                walk(child, name + ".<locals>.")
            elif isinstance(child, ast.ClassDef):
                walk(child, prefix + child.name + ".")
            else:
                walk(child, prefix)

    walk(tree, "")
    return found


def find_function(tree, qualname, line):
    matches = [node for name, node in qualified_functions(tree) if name == qualname]
    if line is not None:
        matches = [n for n in matches if first_line(n) == line] or [n for n in matches if n.lineno <= line <= n.end_lineno]
    return matches[0] if matches else None


def nested_codes(code):
    yield code
    for const in code.co_consts:
        if hasattr(const, "co_code"):
            yield from nested_codes(const)


def find_code(code, key):
    for candidate in nested_codes(code):
        if code_key(candidate) == key:
            return candidate
    return None


def code_lines(code):
    if hasattr(code, "co_lines"):
        return {line for _, _, line in code.co_lines() if line is not None}
    return {line for _, line in dis.findlinestarts(code)}


# ---------------------------------------------------------------------------------------------
# Branch points


class Branch:
    def __init__(self, kind, scope, span, true_to, false_to, labels):
        self.kind = kind
        self.scope = scope  # code key of the frame the condition runs in
        self.span = span  # (first, last) line of the condition
        self.true_to = true_to
        self.false_to = false_to  # None: any other line, or leaving the frame
        self.labels = labels

    def measurable(self):
        lo, hi = self.span
        return not (lo <= self.true_to <= hi) and not (self.false_to is not None and lo <= self.false_to <= hi)


def _start(statements):
    return first_line(statements[0]) if statements else None


def branch_points(function):
    found = []

    def visit(node, scope):
        for child in ast.iter_child_nodes(node):
            inner = scope
            if isinstance(child, _DEFS + (ast.ClassDef, ast.Lambda)):
                inner = scope_key(child)
            elif isinstance(child, ast.If):
                found.append(Branch("if", scope, (child.lineno, child.test.end_lineno), _start(child.body), _start(child.orelse), ("true", "false")))
            elif isinstance(child, ast.While):
                if not isinstance(child.test, ast.Constant):
                    found.append(Branch("while", scope, (child.lineno, child.test.end_lineno), _start(child.body), _start(child.orelse), ("true", "false")))
            elif isinstance(child, (ast.For, ast.AsyncFor)):
                found.append(Branch("for", scope, (child.lineno, child.iter.end_lineno), _start(child.body), _start(child.orelse), ("iteration", "exhausted")))
            elif hasattr(ast, "Match") and isinstance(child, ast.Match):
                cases = child.cases
                for index, case in enumerate(cases):
                    irrefutable = isinstance(case.pattern, ast.MatchAs) and case.pattern.pattern is None and case.guard is None
                    if irrefutable:
                        continue
                    last = (case.guard or case.pattern).end_lineno
                    following = cases[index + 1].pattern.lineno if index + 1 < len(cases) else None
                    found.append(Branch("case", scope, (case.pattern.lineno, last), _start(case.body), following, ("matched", "not matched")))
            visit(child, inner)

    visit(function, scope_key(function))
    return [b for b in found if b.measurable()]


def outcome_taken(arcs, branch, to, other_than):
    lo, hi = branch.span
    for start, end in arcs:
        if not (lo <= start <= hi):
            continue
        if to is not None:
            if end == to:
                return True
        elif not (lo <= end <= hi) and end != other_than:
            return True
    return False


# ---------------------------------------------------------------------------------------------
# Tracing


class Tracer:
    def __init__(self, target_file, keys):
        self.target = _real(target_file)
        self.keys = frozenset(keys)
        self.files = {}  # co_filename -> is the target file
        self.lines = set()
        self.arcs = {key: set() for key in keys}

    def global_trace(self, frame, event, arg):
        code = frame.f_code
        if (code.co_firstlineno, code.co_name) not in self.keys:
            return None
        same = self.files.get(code.co_filename)
        if same is None:
            same = self.files[code.co_filename] = _real(code.co_filename) == self.target
        if not same:
            return None
        return self._frame_tracer(code_key(code))

    def _frame_tracer(self, key):
        arcs = self.arcs[key]
        lines = self.lines
        exit_line = -key[0]
        prev = None

        def trace(frame, event, arg):
            nonlocal prev
            if event == "line":
                line = frame.f_lineno
                lines.add(line)
                if prev is not None:
                    arcs.add((prev, line))
                prev = line
            elif event == "return":
                if prev is not None:
                    arcs.add((prev, exit_line))
                prev = None
            elif event == "exception":
                if not issubclass(arg[0], (StopIteration, StopAsyncIteration)):
                    prev = None
            return trace

        return trace


class Outcomes:
    """A pytest plugin counting test outcomes (a failure in setup or teardown is an error)."""

    def __init__(self):
        self.counts = {"passed": 0, "failed": 0, "errors": 0, "skipped": 0, "xfailed": 0, "xpassed": 0}

    def pytest_runtest_logreport(self, report):
        xfail = hasattr(report, "wasxfail")
        if report.when == "call":
            if report.passed:
                self.counts["xpassed" if xfail else "passed"] += 1
            elif report.failed:
                self.counts["failed"] += 1
            elif report.skipped:
                self.counts["xfailed" if xfail else "skipped"] += 1
        elif report.failed:
            self.counts["errors"] += 1
        elif report.skipped and report.when == "setup":
            self.counts["xfailed" if xfail else "skipped"] += 1

    def pytest_collectreport(self, report):
        if report.failed:
            self.counts["errors"] += 1


# ---------------------------------------------------------------------------------------------


def measure(file, qualname, line, pytest_args):
    with open(file, "rb") as handle:
        source = handle.read()
    tree = ast.parse(source, filename=file)
    function = find_function(tree, qualname, line)
    if function is None:
        return {"error": "no function %s%s in %s" % (qualname, " at line %d" % line if line else "", file)}
    # Compiled with the same file name as the import will use, so line tables match the frames'.
    code = find_code(compile(source, file, "exec", dont_inherit=True), scope_key(function))
    if code is None:
        return {"error": "no code object for %s in %s" % (qualname, file)}
    codes = list(nested_codes(code))
    body_first = first_line(function.body[0])
    executable = sorted({n for c in codes for n in code_lines(c) if body_first <= n <= function.end_lineno})
    keys = {code_key(c) for c in codes}
    branches = [b for b in branch_points(function) if b.scope in keys]

    import pytest

    outcomes = Outcomes()
    tracer = Tracer(file, keys)
    warnings = []
    threading.settrace(tracer.global_trace)
    sys.settrace(tracer.global_trace)
    try:
        exit_code = int(pytest.main(list(pytest_args), plugins=[outcomes]))
    finally:
        if sys.gettrace() != tracer.global_trace:
            # Another tracer (pytest-cov, a debugger) replaced this one: what follows is partial.
            warnings.append("another tracer (%r) replaced tenet's during the run; coverage is incomplete" % (sys.gettrace(),))
        sys.settrace(None)
        threading.settrace(None)

    executable_set = set(executable)
    result_branches = []
    for branch in branches:
        arcs = tracer.arcs.get(branch.scope, set())
        result_branches.append({
            "line": branch.span[0],
            "kind": branch.kind,
            "outcomes": [
                {"label": branch.labels[0], "to": branch.true_to, "taken": outcome_taken(arcs, branch, branch.true_to, None)},
                {"label": branch.labels[1], "to": branch.false_to, "taken": outcome_taken(arcs, branch, branch.false_to, branch.true_to)},
            ],
        })
    return {
        "function": {"qualname": qualname, "firstLine": first_line(function), "bodyLine": body_first, "lastLine": function.end_lineno},
        "lines": executable,
        "hit": sorted(tracer.lines & executable_set),
        "branches": result_branches,
        "arcs": {"%d:%s" % key: sorted(arcs) for key, arcs in tracer.arcs.items()},
        "tests": outcomes.counts,
        "exitCode": exit_code,
        "python": sys.version.split()[0],
        "warnings": warnings,
    }


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    split = argv.index("--") if "--" in argv else len(argv)
    parser = argparse.ArgumentParser(prog="python -m _tenet_coverage")
    parser.add_argument("--file", required=True)
    parser.add_argument("--qualname", required=True)
    parser.add_argument("--line", type=int)
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv[:split])
    # The real stdout, taken before pytest's capture can replace fd 1.
    channel = os.fdopen(os.dup(1), "w", encoding="utf-8") if args.out == "-" else None
    result = measure(args.file, args.qualname, args.line, argv[split + 1:])
    if channel is not None:
        sys.stdout.flush()
        channel.write("\n" + MARK + json.dumps(result) + "\n")
        channel.close()
    else:
        with open(args.out, "w", encoding="utf-8") as out:
            json.dump(result, out)
    return 2 if "error" in result else 0


if __name__ == "__main__":
    sys.exit(main())
