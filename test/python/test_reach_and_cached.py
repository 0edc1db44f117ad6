"""The reach plugin (_tenet_reach.py, `tenet bench make`) and failures through a cached fixture (_tenet_cached.py)."""

from conftest import outcomes_of, write_tree


def test_reach_names_the_candidate_functions_each_test_calls(tmp_path, thm):
    write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/core.py": """
            def first():
                import _tenet_reach_hook; _tenet_reach_hook.hit("f1")
                return 1


            def second():
                import _tenet_reach_hook; _tenet_reach_hook.hit("f2")
                return first() + 1
        """,
        "tests/test_reach.py": """
            from pkg.core import first, second


            def test_first():
                assert first() == 1


            def test_second():
                assert second() == 2


            def test_none():
                assert True
        """,
    })
    events = thm(args=["-p", "_tenet_reach", "tests"])
    reach = {e["nodeid"]: e["fns"] for e in events if e["e"] == "reach"}
    assert reach["tests/test_reach.py::test_first"] == ["f1"]
    assert reach["tests/test_reach.py::test_second"] == ["f1", "f2"]
    assert reach.get("tests/test_reach.py::test_none", []) == []
    assert {t: o["outcome"] for t, o in outcomes_of(events).items()} == {
        "tests/test_reach.py::test_first": "passed",
        "tests/test_reach.py::test_second": "passed",
        "tests/test_reach.py::test_none": "passed",
    }


def test_a_test_that_fails_through_a_cached_module_fixture_names_the_fixture(tmp_path, thm):
    write_tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/core.py": """
            def target():
                __import__("_tenet_probe").hit()
                raise NotImplementedError
        """,
        "tests/test_cached.py": """
            import pytest

            from pkg.core import target


            @pytest.fixture(scope="module")
            def value():
                return target()


            def test_first(value):
                assert value


            def test_second(value):
                assert value
        """,
    })
    tests = outcomes_of(thm(args=["tests"]))
    first, second = tests["tests/test_cached.py::test_first"], tests["tests/test_cached.py::test_second"]
    # The first test's setup called the target; the second got pytest's cached error, no call.
    assert first["outcome"] == "error" and first["chain"]
    assert [f["name"] for f in first["chain"]][-2:] == ["tests/test_cached.py::value", "pkg/core.py::target"]
    assert second["outcome"] == "error"
    assert second["chain"] is None
    assert second["failsThrough"] == "tests/test_cached.py::value"
