"""Tests of tenet's Python helpers (source/python), run by `npm test` (test/unit/python-helpers.test.ts).

The helpers run inside the target's interpreter, configured by environment variables, so most
tests run them as tenet does: a pytest process with ``-p _tenet_thm`` (or the helper's own main)
on a small repository written into tmp_path, and read what they report.
"""

import json
import os
import subprocess
import sys
import textwrap

import pytest

HELPERS = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", "..", "source", "python"))
MARK = "\x1etenet:"

# Imported in-process by the unit-level tests (their modules read no environment at import, or
# only defaults).
sys.path.insert(0, HELPERS)


def write_tree(root, files):
    for path, text in files.items():
        full = root / path
        full.parent.mkdir(parents=True, exist_ok=True)
        full.write_text(textwrap.dedent(text))


def helper_env(extra):
    env = {key: value for key, value in os.environ.items() if not key.startswith("TENET_")}
    env["PYTHONPATH"] = os.pathsep.join([HELPERS] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.update(extra)
    return env


@pytest.fixture
def thm(tmp_path):
    """Runs pytest with the THM plugin on the repository in tmp_path; returns its events."""

    def run(env=None, args=(), timeout=60):
        completed = subprocess.run(
            [sys.executable, "-m", "pytest", "-p", "_tenet_thm", "-p", "no:cacheprovider", "-q", *args],
            cwd=tmp_path,
            env=helper_env({"TENET_ROOT": str(tmp_path), "TENET_TARGET_FILE": str(tmp_path / "pkg" / "core.py"), **(env or {})}),
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        # Each event is one line after MARK, which may follow pytest's own progress dots on a line.
        events = [json.loads(chunk.split("\n", 1)[0]) for chunk in completed.stdout.split(MARK)[1:]]
        assert any(e["e"] == "done" for e in events), completed.stdout + completed.stderr
        return events

    return run


def outcomes_of(events):
    return {e["nodeid"]: e for e in events if e["e"] == "test"}
