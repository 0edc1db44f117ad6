"""The probe tenet puts at the top of the target function during THM: ``__import__("_tenet_probe").hit()``.

It records the call stack the first time the target runs in each test, so nothing is traced and
the THM run costs what the plain test run costs. It imports nothing heavy: test code may start
subprocesses that import the target too.

Modes (TENET_MODE, set by tenet; the pytest plugin in _tenet_thm drives the state):

``record``  record the chain and return: the rest of the body runs (the developer's stub, or the
            ``raise NotImplementedError`` of a blanked target that follows the probe).
``blank``   as ``record``, then every call behaves as the blank target (raises NotImplementedError
            where the body would start, as a blank twin does): the blank world's lanes of mode
            worlds (see _tenet_thm), which share one module text with the original world's.
``fork``    benchmark mode in one pass: the target keeps its original body. At the first call in a
            test the process forks. The parent goes on with the original code; once it finished the
            test, the child resumes as if the target were blank (every call raises
            NotImplementedError) and reports the outcome. Everything before the first call ran
            once, for both. Only a process with one thread forks, at a call on that thread: a
            fork from a worker thread would lose the thread that runs the test, and one beside
            other threads may deadlock. Such a test is run again blank instead.

Chains must not depend on the process or on the order tests ran in (shards run different tests):
frames of code generated at run time keep a process-wide counter in their names, which
``generated_name`` drops.

Sections, one module each: ``state`` (the run as the plugin set it), ``names`` (how a frame is
named), ``chain`` (the frames from the entry to the target), ``arrive`` (a call of the target),
``twin`` (twin mode's blank twin), ``caches`` (twin mode's caches of the target's results) and
``call_probe`` (targets whose call runs none of their body).
"""

from .arrive import hit
from .caches import clear_target_caches
from .call_probe import after, calls, rebind
from .chain import note_thread_starts, record_chain
from .names import COMPREHENSIONS, display_path, generated_name, is_framework, outside_workspace
from .state import _getframe, _realpath, state
from .twin import _may_fork, send_child_result

STATEMENT = '__import__("_tenet_probe").hit()'  # what tenet writes into the target

__all__ = [
    "COMPREHENSIONS",
    "STATEMENT",
    "_getframe",
    "_may_fork",
    "_realpath",
    "after",
    "calls",
    "clear_target_caches",
    "display_path",
    "generated_name",
    "hit",
    "is_framework",
    "note_thread_starts",
    "outside_workspace",
    "rebind",
    "record_chain",
    "send_child_result",
    "state",
]
