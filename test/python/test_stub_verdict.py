"""What the plugin says of a failing test for stub mode to tell the target's from the others (issue 45):
whether the test's own code reached the target (a call by the reporting of a failed assertion is
not its call), where it stopped, and whether a process it started called the target."""

import pytest

from conftest import outcomes_of, write_tree

# Point.__repr__ is the target (the probe first, then the stub); Point.moved another stub, which
# returns None; helpers.parse a helper of the repository's.
REPO = {
    "pkg/__init__.py": "",
    "pkg/point.py": """
        class Point:
            def __init__(self, x, y):
                self.x, self.y = x, y

            def __eq__(self, other):
                return isinstance(other, Point) and (self.x, self.y) == (other.x, other.y)

            def __repr__(self):
                __import__("_tenet_probe").hit()
                raise NotImplementedError

            def moved(self, dx, dy):
                pass

            def scaled(self, k):
                raise NotImplementedError
    """,
    "pkg/helpers.py": """
        import json


        def parse(text):
            return json.loads(text)
    """,
    "tests/test_point.py": """
        import subprocess
        import sys
        import unittest

        from pkg.helpers import parse
        from pkg.point import Point


        def test_repr():
            assert repr(Point(1, 2)) == "Point(1, 2)"


        def test_moved():
            assert Point(1, 2).moved(1, 1) == Point(2, 3)


        def test_scaled():
            assert Point(1, 2).scaled(2) == Point(2, 4)


        def test_parse():
            assert parse("{") == {}


        def test_repr_in_a_subprocess():
            done = subprocess.run([sys.executable, "-c", "from pkg.point import Point; repr(Point(1, 2))"])
            assert done.returncode == 0


        class MovedCase(unittest.TestCase):
            def test_moved(self):
                self.assertEqual(Point(1, 2).moved(1, 1), Point(2, 3))
    """,
}


@pytest.fixture
def tests(tmp_path, thm):
    write_tree(tmp_path, REPO)
    hits = tmp_path / "hits.txt"
    return outcomes_of(thm(env={"TENET_TARGET_FILE": str(tmp_path / "pkg" / "point.py"), "TENET_HITS_FILE": str(hits)}, args=["tests"]))


def test_a_call_by_the_report_of_a_failed_assertion_is_not_the_tests_call(tests):
    # pytest's rewritten assert shows both sides with saferepr, which calls the stubbed __repr__.
    assert tests["tests/test_point.py::test_moved"]["outcome"] == "failed"
    assert tests["tests/test_point.py::test_moved"]["chain"] is None
    # unittest's assertEqual does the same with safe_repr.
    assert tests["tests/test_point.py::MovedCase::test_moved"]["outcome"] == "failed"
    assert tests["tests/test_point.py::MovedCase::test_moved"]["chain"] is None
    # A test that calls repr itself reaches the target.
    assert [f["name"] for f in tests["tests/test_point.py::test_repr"]["chain"]] == [
        "tests/test_point.py::test_repr",
        "pkg/point.py::Point.__repr__",
    ]


def test_where_a_failing_test_stopped_is_the_innermost_frame_of_the_repository(tests):
    # In another stub of the same class.
    assert tests["tests/test_point.py::test_scaled"]["stoppedAt"] == {"name": "pkg/point.py::Point.scaled", "line": 17}
    # json raised it, on the repository's behalf: the helper that called json is where it stopped.
    assert tests["tests/test_point.py::test_parse"]["stoppedAt"] == {"name": "pkg/helpers.py::parse", "line": 6}
    # At its own assertion (pytest's report of it hides nothing of the test), in either style.
    assert tests["tests/test_point.py::test_moved"]["stoppedAt"]["name"] == "tests/test_point.py::test_moved"
    assert tests["tests/test_point.py::MovedCase::test_moved"]["stoppedAt"]["name"] == "tests/test_point.py::MovedCase.test_moved"
    # The subprocess failed in the stub: the test sees only its exit code.
    assert tests["tests/test_point.py::test_repr_in_a_subprocess"]["stoppedAt"]["name"] == "tests/test_point.py::test_repr_in_a_subprocess"


def test_a_process_the_test_started_that_called_the_target_is_noted(tests):
    ran = tests["tests/test_point.py::test_repr_in_a_subprocess"]
    assert ran["outcome"] == "failed"
    assert ran["subprocess"] is True
    assert ran["chain"] is None
    assert tests["tests/test_point.py::test_scaled"]["subprocess"] is False
