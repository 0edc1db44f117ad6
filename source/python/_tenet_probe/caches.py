"""Twin mode: the functools caches that may keep the target's results, emptied at each test's start."""

import functools
import sys
import types

_target_caches = None  # twin mode: the caches that may hold the target's results; cleared at each test's start
_cached_callers = {}  # twin mode: code of a function behind an lru_cache -> that cache, until found above the target
_modules_seen = 0  # len(sys.modules) when caches were last looked for


def _note_target_caches(code):
    """Twin mode, at the target's first call: the caches that may keep the target's results. A
    blank target raises, and functools.lru_cache never keeps a call that raised; but twin mode's
    parent runs the original, and what an earlier test left in a cache answers a later test's call
    without reaching the target: that test would fork no twin (or fork it only at a later call)
    and pass "blank" where a plain blank run raises. Two kinds of cache:

    - a cache on the target itself (networkx's ``_rooted_trees``), found now;
    - a cache on a function that calls the target, at any depth (``_unlabeled_trees`` around
      ``_rooted_trees``; sympy's ``cacheit`` functions): every cache in the process is noted by the
      code it runs (and those of modules imported later, as they come), and one is taken in when
      its function's frame is found above a target call (_note_cached_callers).

    The plugin clears them at each test's start (clear_target_caches), so each test reaches the
    target as in a blank run. Caches only remember results: clearing them changes no outcome."""
    global _target_caches, _modules_seen
    if _target_caches is not None:
        return
    _target_caches = []
    _modules_seen = len(sys.modules)
    try:
        import gc

        for function in gc.get_referrers(code):
            if not (isinstance(function, types.FunctionType) and function.__code__ is code):
                continue
            for holder in gc.get_referrers(function):
                if isinstance(holder, (dict, list, tuple, types.FunctionType, types.FrameType)):
                    continue
                try:
                    wrapped = object.__getattribute__(holder, "__dict__").get("__wrapped__")
                except Exception:
                    continue
                if wrapped is function and callable(getattr(type(holder), "cache_clear", None)):
                    _target_caches.append(holder)
        for cache in gc.get_objects():
            _note_cache(cache, code)
    except Exception:
        pass


_LRU_CACHE = getattr(functools, "_lru_cache_wrapper", None)


def _note_cache(cache, target_code):
    """Notes ``cache`` by the code it runs, if it is a functools cache on a function not the target."""
    if _LRU_CACHE is None or type(cache) is not _LRU_CACHE or cache in _target_caches:
        return
    callers_code = getattr(getattr(cache, "__wrapped__", None), "__code__", None)
    if isinstance(callers_code, types.CodeType) and callers_code is not target_code:
        _cached_callers.setdefault(callers_code, cache)


def _note_new_modules():
    """The caches of modules imported since the last look (a function's lazy import): at module
    level, in a closure there (sympy's ``cacheit`` keeps its cache in the wrapper's), or on a
    class's methods. sys.modules keeps the order modules came in. Only plain modules, and values
    looked at by their type: a lazy module or a proxy would run code (an import) when read."""
    global _modules_seen
    modules = list(sys.modules.values())
    new, _modules_seen = modules[_modules_seen:], len(modules)
    for module in new:
        if type(module) is not types.ModuleType:
            continue
        for value in list(module.__dict__.values()):
            own_class = issubclass(type(value), type) and value.__module__ == module.__name__
            for member in list(vars(value).values()) if own_class else (value,):
                if type(member) in (staticmethod, classmethod):
                    member = member.__func__
                for held in _held_caches(member):
                    _note_cache(held, None)


def _held_caches(value):
    """A cache, or the caches a function's closure holds."""
    if type(value) is _LRU_CACHE:
        yield value
    elif type(value) is types.FunctionType:
        for cell in value.__closure__ or ():
            try:
                yield cell.cell_contents
            except ValueError:  # an empty cell
                pass


def _note_cached_callers(frame):
    """A target call in twin mode's parent: the caches whose functions are on the stack above it
    keep results that came from the target (see _note_target_caches)."""
    if len(sys.modules) != _modules_seen:
        try:
            _note_new_modules()
        except Exception:
            pass
    if not _cached_callers:
        return
    caller = frame.f_back
    while caller is not None:
        cache = _cached_callers.pop(caller.f_code, None)
        if cache is not None:
            _target_caches.append(cache)
            if not _cached_callers:
                return
        caller = caller.f_back


def clear_target_caches():
    """Twin mode, in the parent at each test's start: see _note_target_caches."""
    for cache in _target_caches or ():
        try:
            cache.cache_clear()
        except Exception:
            pass
