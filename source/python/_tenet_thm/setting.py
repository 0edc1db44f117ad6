"""What the whole plugin reads once: the probe's state, the target's file, the mode."""

import os

import pytest

import _tenet_probe as probe

_state = probe.state
_state.in_pytest = True
_TARGET_FILE = probe._realpath(os.environ.get("TENET_TARGET_FILE", ""))
_FORK = _state.mode == "fork" and hasattr(os, "fork")
_WORLDS = _state.mode == "worlds"


def _hookwrapper(function):
    """An old-style hook wrapper: pluggy 0.x and 1.x both understand it."""
    return pytest.hookimpl(hookwrapper=True)(function)
