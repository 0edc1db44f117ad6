"""functools caches of the workspace's functions, emptied at each test's start while recording.

A cache answers a later test's call without running the function: a test that calls a cached
``f`` whose result an earlier test computed never reaches what ``f`` calls, but with one of those
functions blank the earlier test's call raised (a cache keeps no call that raised) and the later
one computes ``f`` itself, and fails. Recorded with its caches empty, each test reaches what it
would compute alone: no less than what it computes after any earlier test. Caches only remember
results, so emptying them changes no outcome, only what is computed again.

Each cache is noted as ``functools.lru_cache`` (and ``cache``) makes it, through the module's own
``_lru_cache_wrapper``, which it looks up at each decoration; a cache made before the plugin
loaded (the standard library's) holds no function of the workspace.
"""

import functools
import weakref

from . import finder

_made = functools._lru_cache_wrapper
_caches = weakref.WeakSet()


def _noting_wrapper(user_function, *args, **kwargs):
    cache = _made(user_function, *args, **kwargs)
    code = getattr(user_function, "__code__", None)
    if code is not None and finder.in_workspace(code.co_filename) is not None:
        try:
            _caches.add(cache)
        except TypeError:
            pass
    return cache


def install():
    functools._lru_cache_wrapper = _noting_wrapper


def clear():
    for cache in list(_caches):
        try:
            cache.cache_clear()
        except Exception:
            pass
