"""The reach index's recorder (_tenet_index): which functions each test, fixture and import calls."""

import sys

import pytest

from conftest import write_tree

REPO = {
    "pkg/__init__.py": "",
    "pkg/core.py": """
        import functools


        def leaf(x):
            '''A docstring stays the first statement.'''
            return x + 1


        def middle(x):
            return leaf(x) * 2


        def unused(x):
            return x


        def numbers(n):
            for i in range(n):
                yield leaf(i)


        @functools.lru_cache(maxsize=None)
        def cached(x):
            return leaf(x)


        class Box:
            def size(self):
                def inner():
                    return leaf(1)

                return inner()
    """,
    "pkg/boot.py": """
        from pkg.core import unused

        READY = unused(3)
    """,
    "tests/__init__.py": "",
    "tests/test_core.py": """
        import subprocess
        import sys
        import threading

        import pytest

        from pkg import core


        @pytest.fixture(scope="module")
        def shared():
            return core.middle(1)


        def test_leaf():
            assert core.leaf(1) == 2


        def test_middle():
            assert core.middle(1) == 4


        def test_nothing():
            assert 1 + 1 == 2


        def test_first_cached():
            assert core.cached(5) == 6


        def test_second_cached():
            assert core.cached(5) == 6


        def test_fixture_first(shared):
            assert shared == 4


        def test_fixture_again(shared):
            assert shared == 4


        def test_in_a_thread():
            out = []
            worker = threading.Thread(target=lambda: out.append(core.leaf(0)))
            worker.start()
            worker.join()
            assert out == [1]


        def test_generator():
            assert list(core.numbers(2)) == [1, 2]


        def test_nested():
            assert core.Box().size() == 2


        def test_spawns():
            subprocess.run([sys.executable, "-c", "pass"], check=True)
    """,
    "tests/test_boot.py": """
        from pkg import boot

        LEAF = __import__("pkg.core").core.leaf(10)


        def test_ready():
            assert boot.READY == 3
    """,
}


@pytest.fixture
def recorded(tmp_path, thm):
    write_tree(tmp_path, REPO)
    events = thm(args=["-p", "_tenet_index", "tests"])
    tables = {e["file"]: e["fns"] for e in events if e["e"] == "reachfile"}

    def names(fns):
        return sorted(f"{file}::{tables[file][i][0]}" for file, locals_ in fns.items() for i in locals_)

    tests = {e["nodeid"]: e for e in events if e["e"] == "reachtest"}
    return {
        "events": events,
        "tables": tables,
        "names": names,
        "reach": {nodeid: names(e["fns"]) for nodeid, e in tests.items()},
        "tests": tests,
    }


def test_each_test_records_the_functions_it_calls_and_those_below(recorded):
    reach = recorded["reach"]
    assert reach["tests/test_core.py::test_leaf"] == ["pkg/core.py::leaf"]
    assert reach["tests/test_core.py::test_middle"] == ["pkg/core.py::leaf", "pkg/core.py::middle"]
    assert reach["tests/test_core.py::test_nothing"] == []
    # Nested functions are named as Python names them.
    assert reach["tests/test_core.py::test_nested"] == [
        "pkg/core.py::Box.size",
        "pkg/core.py::Box.size.<locals>.inner",
        "pkg/core.py::leaf",
    ]
    # Every test ran and passed: the probe changes no outcome (a docstring stays __doc__).
    outcomes = {e["nodeid"]: e["outcome"] for e in recorded["events"] if e["e"] == "test"}
    assert set(outcomes.values()) == {"passed"}, outcomes


def test_a_cached_function_is_computed_again_in_each_test(recorded):
    # Without emptying the cache, the second test would get the first one's result and never
    # reach leaf: blank, the first call raises (no cache keeps it) and the second fails too.
    reach = recorded["reach"]
    assert reach["tests/test_core.py::test_first_cached"] == ["pkg/core.py::cached", "pkg/core.py::leaf"]
    assert reach["tests/test_core.py::test_second_cached"] == ["pkg/core.py::cached", "pkg/core.py::leaf"]


def test_a_wider_fixture_counts_for_every_test_that_uses_its_cached_value(recorded):
    reach = recorded["reach"]
    assert reach["tests/test_core.py::test_fixture_first"] == ["pkg/core.py::leaf", "pkg/core.py::middle"]
    assert reach["tests/test_core.py::test_fixture_again"] == ["pkg/core.py::leaf", "pkg/core.py::middle"]


def test_threads_generators_and_processes(recorded):
    reach = recorded["reach"]
    assert reach["tests/test_core.py::test_in_a_thread"] == ["pkg/core.py::leaf"]
    assert reach["tests/test_core.py::test_generator"] == ["pkg/core.py::leaf", "pkg/core.py::numbers"]
    generator = {row[0]: row[3] for row in recorded["tables"]["pkg/core.py"]}
    assert generator["numbers"] is True and generator["leaf"] is False
    assert recorded["tests"]["tests/test_core.py::test_spawns"].get("spawns") is True
    assert "spawns" not in recorded["tests"]["tests/test_core.py::test_leaf"]


def test_imports_are_contexts_of_their_own(recorded):
    imports = {e["file"]: recorded["names"](e["fns"]) for e in recorded["events"] if e["e"] == "reachimport"}
    # A package module's top level: what every test importing it depends on.
    assert imports["pkg/boot.py"] == ["pkg/core.py::unused"]
    # A test module's top level: its own tests' (and pkg/boot.py's, imported as it ran).
    assert imports["tests/test_boot.py"] == ["pkg/core.py::leaf", "pkg/core.py::unused"]


def test_no_probed_bytecode_is_left_behind(tmp_path, thm):
    write_tree(tmp_path, REPO)
    thm(args=["-p", "_tenet_index", "tests"], env={"PYTHONDONTWRITEBYTECODE": ""})
    cached = list((tmp_path / "pkg").glob("__pycache__/*.pyc"))
    assert cached == [], "the probed modules are compiled in memory only"
