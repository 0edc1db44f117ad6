"""THM's pytest plugin as tenet loads it (``-p _tenet_thm_plugin``): the hooks of _tenet_thm.

pytest rewrites the asserts of a module loaded with ``-p``, and of its package's submodules, and
where it may write no bytecode (the sandbox shows tenet's helpers read-only; PYTHONDONTWRITEBYTECODE)
it compiles them from their source on every start: about 25 ms for _tenet_thm. Loaded through this
module, _tenet_thm is an ordinary import, read from the bytecode tenet compiled for the interpreter
(see helper-bytecode.ts). Its own docstring says what the plugin does.
"""

from _tenet_thm import *  # noqa: F401,F403 (pytest finds the hooks by their names here)
