"""What the probe knows of the run: its mode and workspace, the running test (set by the plugin), and the plugin's callbacks."""

import os
import sys

# Bound at import: a test may take these out of sys while it runs (attrs' make_class tests run
# without sys._getframe), and the probe must not fail where the code it stands in front of works.
_getframe = sys._getframe
_current_frames = sys._current_frames


def _realpath(path):
    try:
        return os.path.realpath(path)
    except (OSError, ValueError):
        return path


class State:
    def __init__(self):
        self.mode = os.environ.get("TENET_MODE", "record")
        self.root = _realpath(os.environ.get("TENET_ROOT", os.getcwd()))
        self.ctx = None  # the running test or collector (set by the plugin); None outside pytest
        self.in_pytest = False
        self.in_child = False  # twin mode: this process is the blank twin of a test
        self.child_result_fd = None
        self.fixture_chains = {}  # id(fixturedef) -> (chain, entry_kind) recorded in that fixture's setup
        self.entry_codes = None  # callable(item) -> (test codes, fixture codes); set by the plugin
        self.on_hit = None  # callable(ctx, chain, entry_kind); set by the plugin
        self.on_start_hit = None  # callable(chain): called outside any test or collector (a conftest's import); set by the plugin
        self.on_child_start = None  # callable(), run in the blank twin when it resumes; set by the plugin
        self.at_twin_fork = None  # callable(ctx) -> callable(in_twin), run in the parent right before the fork, the result on both sides after it; set by the plugin
        self.before_fork = None  # callable(ctx) -> False where a blank run would not reach this call; set by the plugin
        self.blank_phases = set()  # in the blank twin: the phases (ctx.phase) in which the target was called
        self.twin_text = True  # in the blank twin: whether its failure report is read (the original passed)
        self.noted_subprocess = False


state = State()
