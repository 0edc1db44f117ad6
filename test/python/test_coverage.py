"""_tenet_coverage.py: line and branch coverage of one function by one pytest run."""

import json
import subprocess
import sys

from conftest import helper_env, write_tree

MODULE = """
    def sign(x):
        if x > 0:
            return 1
        elif x < 0:
            return -1
        return 0


    def other():
        return 5
"""


def measure(tmp_path, tests):
    write_tree(tmp_path, {"mod.py": MODULE, "test_mod.py": tests})
    out = tmp_path / "result.json"
    completed = subprocess.run(
        [sys.executable, "-m", "_tenet_coverage", "--file", str(tmp_path / "mod.py"), "--qualname", "sign", "--out", str(out), "--", "-q", "-p", "no:cacheprovider", "test_mod.py"],
        cwd=tmp_path, env=helper_env({}), capture_output=True, text=True, timeout=60,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    return json.loads(out.read_text())


def test_counts_the_lines_and_branch_outcomes_the_tests_took(tmp_path):
    result = measure(tmp_path, """
        from mod import sign

        def test_positive():
            assert sign(3) == 1
    """)
    # The body's lines (3..7 of the file: the def is line 2), not the def line, not other().
    assert result["lines"] == [3, 4, 5, 6, 7]
    assert result["hit"] == [3, 4]
    # Two branch points (if, elif), two outcomes each: only the if's true outcome was taken.
    taken = [[o["taken"] for o in branch["outcomes"]] for branch in result["branches"]]
    assert taken == [[True, False], [False, False]]
    assert result["tests"]["passed"] == 1


def test_every_path_taken_covers_every_line_and_outcome(tmp_path):
    result = measure(tmp_path, """
        from mod import sign

        def test_all():
            assert [sign(3), sign(-2), sign(0)] == [1, -1, 0]
    """)
    assert result["hit"] == result["lines"]
    assert all(o["taken"] for branch in result["branches"] for o in branch["outcomes"])


def test_an_unknown_function_is_an_error_naming_it(tmp_path):
    write_tree(tmp_path, {"mod.py": MODULE})
    completed = subprocess.run(
        [sys.executable, "-m", "_tenet_coverage", "--file", str(tmp_path / "mod.py"), "--qualname", "nope", "--out", str(tmp_path / "r.json"), "--", "-q"],
        cwd=tmp_path, env=helper_env({}), capture_output=True, text=True, timeout=60,
    )
    assert completed.returncode == 2
    assert "no function nope" in json.loads((tmp_path / "r.json").read_text())["error"]
