"""The reach index's probe, put into every function of a module as Python compiles it.

Each function's first statement (after its docstring) becomes::

    if __tenet_armed__[ID]: __tenet_reached__(ID)

on the line of the statement it stands before, so tracebacks, ``co_firstlineno`` and line events
are as without it. ``__tenet_armed__`` and ``__tenet_reached__`` live in ``builtins`` (see
record.py): the probe works in any namespace the code runs in (runpy, exec of a module's code).
Once a function reported itself in a test its slot is off, so from then on a call costs a list
lookup and a jump: the cheapest sound recorder Python 3.11 allows (3.12's sys.monitoring does the
same, PY_START disabled per code object after its first event, but has no per-test restart
cheaper than this list).

A function's key is ``qualname@line``: Python's ``__qualname__`` and its first line, decorators
included (``co_firstlineno``), as tenet names targets. Lambdas are no target and carry no probe.
A generator's body first runs at its first ``next()``, not at the call: such functions are marked
(see the table), and tenet adds to their reach what its blank (a plain function that raises when
called) needs.
"""

import ast

ARMED = "__tenet_armed__"
REACHED = "__tenet_reached__"


def _probe(slot, at):
    """``if ARMED[slot]: REACHED(slot)`` at the place of the statement `at`."""
    test = ast.Subscript(value=ast.Name(id=ARMED, ctx=ast.Load()), slice=ast.Constant(slot), ctx=ast.Load())
    call = ast.Expr(ast.Call(func=ast.Name(id=REACHED, ctx=ast.Load()), args=[ast.Constant(slot)], keywords=[]))
    node = ast.If(test=test, body=[call], orelse=[])
    for part in ast.walk(node):
        part.lineno = at.lineno
        part.col_offset = at.col_offset
        part.end_lineno = at.lineno
        part.end_col_offset = at.col_offset
    return node


def _is_docstring(statement):
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and isinstance(statement.value.value, str)
    )


class _Generators(ast.NodeVisitor):
    """Whether a function's own body yields (not a nested function's or class's)."""

    def __init__(self):
        self.found = False

    def visit_Yield(self, node):
        self.found = True

    visit_YieldFrom = visit_Yield

    def visit_FunctionDef(self, node):
        pass

    visit_AsyncFunctionDef = visit_FunctionDef
    visit_Lambda = visit_FunctionDef
    visit_ClassDef = visit_FunctionDef


def _yields(function):
    finder = _Generators()
    for statement in function.body:
        finder.visit(statement)
    return finder.found


def instrument(tree, next_slot):
    """Puts the probe into every function of `tree` (a module), numbering them from `next_slot`.
    Returns the table, one ``(qualname, first line, last line, generator)`` per slot in order."""
    table = []

    def walk(body, prefix):
        for statement in body:
            visit(statement, prefix)

    def visit(node, prefix):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            qualname = prefix + node.name
            first = min([node.lineno] + [d.lineno for d in node.decorator_list])
            generator = isinstance(node, ast.FunctionDef) and _yields(node)
            slot = next_slot + len(table)
            table.append((qualname, first, node.end_lineno or node.lineno, generator))
            body = node.body
            # After the docstring, which stays the first statement (__doc__).
            at = 1 if _is_docstring(body[0]) else 0
            body.insert(at, _probe(slot, body[at] if at < len(body) else body[0]))
            walk(body[at + 1 :], qualname + ".<locals>.")
            return
        if isinstance(node, ast.ClassDef):
            walk(node.body, prefix + node.name + ".")
            return
        # Definitions inside compound statements (if/try/with/for/while/match) keep the prefix.
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            children = getattr(node, field, None)
            if isinstance(children, list):
                for child in children:
                    if isinstance(child, ast.AST):
                        visit(child, prefix)

    walk(tree.body, "")
    return table
