"""tenet's judge: runs pytest (``python -m _tenet_judge PYTEST-ARGS``; see __main__.py) where the submitted code is
judged, with a tripwire the judged code cannot take down and a channel it cannot forge.

The submission runs inside the process that runs its tests: it can reach that process's objects.
Before anything of the repository is imported, this module

- installs an audit hook (PEP 578; Python code cannot remove one) that trips when the submission's
  own code (the target as submitted, anything it defined, any code it ran through exec) is on the
  stack and walks the heap (``gc.get_objects``, ``gc.get_referrers``, ``gc.get_referents``), takes
  frames (``sys._getframe`` of its own frame or below, ``sys._current_frames``, a traceback's or
  generator's frame read by its own code), traces (``sys.settrace``, ``sys.setprofile``), adds an
  audit hook, loads or calls C (``ctypes``), forks, execs, kills or starts processes
  (``os.fork``, ``os.exec*``, ``os.posix_spawn``, ``os.kill``, ``os.system``, ``subprocess``),
  writes into the copy under judgment or into process memory, imports pytest, pluggy or tenet's
  helpers anew, assigns a function's ``__code__`` or sets or deletes an attribute of pytest's,
  pluggy's or tenet's modules. A trip is reported and the call is refused (it raises);
- keeps the plugin's events to a channel only it can write: each line carries an HMAC under a key
  read from stdin (never in the environment), and a sequence number. The hook accepts an event
  only from the THM plugin's own code, on the main thread, in the order pytest runs tests (a
  test's outcome once, after its start; nothing after the end), and only while the functions and
  classes of the harness (pytest, pluggy, unittest's TestCase, builtins, tenet's helpers) and
  pytest's registered hooks are the ones it saw before the tests ran.

tenet reads a line without a valid HMAC, or out of sequence, as a forgery: the verdict is then
unverified, as it is after any trip. What the judged code can still do without any of these
(change a test module's globals through ``__dict__``, return an object equal to everything) is
what the static read of the submission flags (see engine/eval/submission-flags.ts) and what
tenet's Safety page says it cannot guarantee.

Environment (set by tenet): TENET_ROOT (the copy under judgment), TENET_TARGET_FILE, and
TENET_JUDGE_LINES ("first-last": the submitted definition's lines in that file); TENET_JUDGE_SPANS
(more spans counted as submitted code, as JSON [[file, first, last], ...]: a plan's earlier
targets, and qa's false-alarm check).
"""
