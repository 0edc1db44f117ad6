"""tenet's THM pytest plugin (tenet loads it with ``-p _tenet_thm_plugin``, see there; ``-p _tenet_thm``
works too); the probe itself is _tenet_probe.

It tells the probe which test or collector is running, reports one JSON line per event on a
duplicate of the original stdout (taken at import time: ``-p`` plugins are imported before pytest
starts capturing), each prefixed with MARK so tenet finds it among pytest's own output, and in
twin mode collects the outcome of each test's blank twin.

Environment (all set by tenet):
  TENET_ROOT          workspace root; chain paths and node ids are relative to it
  TENET_TARGET_FILE   absolute path of the target's file in the workspace
  TENET_MODE          record | blank | fork (see _tenet_probe) | worlds: both worlds from one
                      collection (see pytest_runtestloop)
  TENET_SHARD         "k/n": run only the k-th of n balanced shards of the collected tests
  TENET_LANES         n: collect once, then run the n shards in forked lanes (see _tenet_lanes.py);
                      "auto:n": at most n, one per 10 tests
  TENET_ONLY          file of node ids, or file paths meaning all their tests, to run; the rest is deselected
  TENET_SKIP          file of node ids already done by an earlier, crashed run of this shard
  TENET_TEST_TIMEOUT  seconds per test (setup + call + teardown), 0 for none
  TENET_TEXT          0: no failure report is read from this run (its outcomes only)
  TENET_HITS_FILE     where subprocesses started by a test note that they called the target
  TENET_PARENT_PID    tenet's pid: this process dies with it (Linux)

Sections, one module each, imported here in this order: ``channel`` (the events to tenet),
``bytecode``, ``scope`` (TENET_ONLY, shards, node ids), ``entries`` (what may start a chain),
``worlds`` (lanes, and both worlds from one collection), ``collection``, ``timeout``, ``twin``
(twin mode's blank twin), ``tests`` (each test's outcome and chain) and ``session_end``, whose
exit handler must be registered after the channel's (see _end_quickly).
"""

# pytest finds the hooks by their names here (or in _tenet_thm_plugin, which imports them): each
# section's hooks are imported into it. The sections without hooks act as they are imported.
from . import channel, bytecode, entries  # noqa: F401
from .scope import pytest_collection_modifyitems, pytest_configure, pytest_ignore_collect  # noqa: F401
from .worlds import pytest_runtestloop  # noqa: F401
from .collection import pytest_collectreport, pytest_itemcollected, pytest_make_collect_report  # noqa: F401
from .tests import (  # noqa: F401
    pytest_collection_finish,
    pytest_fixture_setup,
    pytest_runtest_call,
    pytest_runtest_logfinish,
    pytest_runtest_logreport,
    pytest_runtest_logstart,
    pytest_runtest_makereport,
    pytest_runtest_setup,
    pytest_runtest_teardown,
)
from .session_end import pytest_sessionfinish  # noqa: F401
from .timeout import pytest_timeout_cancel_timer, pytest_timeout_set_timer  # noqa: F401
