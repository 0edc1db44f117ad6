"""Targets whose call runs none of their body: generators, async generators, coroutines.

Their first statement runs at the first next()/send()/await, by then the frame that called the
target may be gone (`list(adjacent(...))` iterates what `adjacent` returned). THM's chain is the
stack at the call, so tenet wraps such a target in a call probe instead of putting hit() in its
body: ``@__import__("_tenet_probe").calls(LINE)`` on a free line above it, or around its
innermost decorator (``after``), or, with neither, ``rebind`` at the end of the module.
"""

import types

from .arrive import _arrive
from .names import display_path, generated_name
from .state import _getframe

_CO_ASYNC = 0x80 | 0x100 | 0x200  # CO_COROUTINE, CO_ITERABLE_COROUTINE, CO_ASYNC_GENERATOR
_CO_ASYNC_GENERATOR = 0x200


async def _blank_coroutine():
    raise NotImplementedError


async def _blank_async_generator():
    raise NotImplementedError
    yield  # unreachable: makes this an async generator, whose first step raises


class _CallProbe:
    """Stands in for the target: records the chain when called, then calls it (or, in a blank
    twin, does what the blank does). It keeps the function's ``__code__`` and other attributes,
    so ``inspect.isgeneratorfunction`` / ``iscoroutinefunction`` and signatures answer as for the
    function itself, and binds to instances as a function does."""

    def __init__(self, func, line):
        # What functools.wraps would copy goes into the probe's __dict__; a decorator above may
        # copy that dict into its own object, and finds there what it would have found on the
        # function. The function's code and defaults are read through (_through, below): copied
        # into a decorator's object they would make it look like the function (networkx's
        # _dispatchable takes every key of the dict, so it lost its own `backend=None` keyword
        # default and looked like a generator function to the argmap above it).
        for name in ("__module__", "__name__", "__qualname__", "__doc__", "__annotations__"):
            try:
                setattr(self, name, getattr(func, name))
            except AttributeError:
                pass
        self.__dict__.update(getattr(func, "__dict__", {}))
        self.__wrapped__ = func
        self._tenet_func = func
        self._tenet_line = line
        self._tenet_record = None

    def _tenet_target(self):
        if self._tenet_record is None:
            code = self._tenet_func.__code__
            qualname = getattr(code, "co_qualname", None) or self._tenet_func.__qualname__
            if code.co_filename.startswith("<"):
                qualname = generated_name(code.co_filename, qualname)[1]
            self._tenet_record = {
                "name": display_path(code.co_filename) + "::" + qualname,
                "line": self._tenet_line,
                "comprehension": False,
            }
        return self._tenet_record

    def __call__(self, *args, **kwargs):
        __tracebackhide__ = True
        if _arrive(_getframe(), self._tenet_target(), self._tenet_func.__code__):
            # As the blank would: a blanked generator is a plain function (it raises at the call),
            # a blanked `async def` still returns a coroutine, which raises when awaited, and a
            # blanked async generator stays one (its blank keeps a yield), which raises at its first step.
            flags = self._tenet_func.__code__.co_flags
            if flags & _CO_ASYNC_GENERATOR:
                return _blank_async_generator()
            if flags & _CO_ASYNC:
                return _blank_coroutine()
            raise NotImplementedError
        return self._tenet_func(*args, **kwargs)

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        return types.MethodType(self, obj)

    def __repr__(self):
        return repr(self._tenet_func)


def _through(name):
    """An attribute of the probed function, read and written on the function itself."""
    return property(
        lambda self: getattr(self._tenet_func, name),
        lambda self, value: setattr(self._tenet_func, name, value),
    )


for _name in ("__code__", "__defaults__", "__kwdefaults__", "__globals__", "__closure__"):
    setattr(_CallProbe, _name, _through(_name))
del _name


def calls(line):
    """Decorator: the target (no other decorator) wrapped in a call probe."""
    return lambda func: _CallProbe(func, line)


def after(decorator, line):
    """Stands for the target's innermost decorator: the probe goes between it and the function."""
    return lambda func: decorator(_CallProbe(func, line))


def rebind(namespace, qualname, line):
    """At the end of the target's module: replace the module-level function or method by its probe."""
    *path, name = qualname.split(".")
    owner = None
    try:
        for part in path:
            owner = namespace[part] if owner is None else vars(owner)[part]
        holder = namespace if owner is None else vars(owner)
        current = holder[name]
    except (KeyError, TypeError):
        return
    kind = type(current) if isinstance(current, (staticmethod, classmethod)) else None
    func = current.__func__ if kind else current
    if not hasattr(func, "__code__"):
        return
    probe = _CallProbe(func, line)
    if owner is None:
        namespace[name] = kind(probe) if kind else probe
    else:
        setattr(owner, name, kind(probe) if kind else probe)
