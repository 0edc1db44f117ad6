"""The THM plugin (_tenet_thm with the probe, _tenet_probe): chains, outcomes, shards, lanes, timeouts."""

import pytest

from conftest import outcomes_of, write_tree

# The target as tenet instruments it in stub mode: the probe first, then the (blank) body.
REPO = {
    "pkg/__init__.py": "",
    "pkg/core.py": """
        def target(x):
            __import__("_tenet_probe").hit()
            raise NotImplementedError


        def caller(x):
            return target(x) + 1
    """,
    "tests/test_core.py": """
        import time

        from pkg.core import caller, target


        def test_direct():
            assert target(1) == 2


        def test_through_caller():
            assert caller(1) == 3


        def test_never_calls():
            assert 1 + 1 == 2


        def test_slow():
            time.sleep(30)
    """,
}


@pytest.fixture
def repo(tmp_path):
    write_tree(tmp_path, REPO)
    return tmp_path


def test_records_each_failing_test_with_its_chain_down_to_the_target(repo, thm):
    tests = outcomes_of(thm(args=["tests/test_core.py", "-k", "not slow"]))
    assert tests["tests/test_core.py::test_direct"]["outcome"] == "failed"
    assert [f["name"] for f in tests["tests/test_core.py::test_direct"]["chain"]] == ["tests/test_core.py::test_direct", "pkg/core.py::target"]
    assert [f["name"] for f in tests["tests/test_core.py::test_through_caller"]["chain"]] == [
        "tests/test_core.py::test_through_caller",
        "pkg/core.py::caller",
        "pkg/core.py::target",
    ]
    assert tests["tests/test_core.py::test_direct"]["entryKind"] == "test"
    assert "NotImplementedError" in tests["tests/test_core.py::test_direct"]["message"]
    # A passing test that never called the target has no chain.
    assert tests["tests/test_core.py::test_never_calls"]["outcome"] == "passed"
    assert tests["tests/test_core.py::test_never_calls"]["chain"] is None


def test_the_shards_split_the_tests_without_overlap(repo, thm):
    ran = [set(outcomes_of(thm(env={"TENET_SHARD": f"{k}/2"}, args=["tests", "-k", "not slow"]))) for k in range(2)]
    assert ran[0] and ran[1]
    assert not ran[0] & ran[1]
    assert ran[0] | ran[1] == {"tests/test_core.py::test_direct", "tests/test_core.py::test_through_caller", "tests/test_core.py::test_never_calls"}


def test_lanes_collect_once_and_run_every_test_once(repo, thm):
    events = thm(env={"TENET_LANES": "2"}, args=["tests", "-k", "not slow"])
    lanes = [e for e in events if e["e"] == "lanes"]
    assert lanes and lanes[0]["count"] == 2
    tests = [e for e in events if e["e"] == "test"]
    assert sorted(e["nodeid"] for e in tests) == ["tests/test_core.py::test_direct", "tests/test_core.py::test_never_calls", "tests/test_core.py::test_through_caller"]
    # Each test's event says which lane ran it.
    assert {e["lane"] for e in tests} <= {0, 1}
    assert [e["lane"] for e in events if e["e"] == "laneexit"] != []


def test_only_runs_the_listed_tests(repo, thm, tmp_path):
    only = tmp_path / "only.txt"
    only.write_text("tests/test_core.py::test_through_caller\n")
    assert set(outcomes_of(thm(env={"TENET_ONLY": str(only)}, args=["tests"]))) == {"tests/test_core.py::test_through_caller"}


def test_a_test_past_its_timeout_is_stopped_and_says_so(repo, thm):
    tests = outcomes_of(thm(env={"TENET_TEST_TIMEOUT": "1"}, args=["tests/test_core.py::test_slow"], timeout=25))
    slow = tests["tests/test_core.py::test_slow"]
    assert slow["timedOut"] is True
    assert slow["outcome"] != "passed"


def test_blank_mode_makes_an_implemented_target_behave_as_blank(tmp_path, thm):
    write_tree(tmp_path, {
        **REPO,
        "pkg/core.py": """
            def target(x):
                __import__("_tenet_probe").hit()
                return x + 1


            def caller(x):
                return target(x) + 1
        """,
    })
    recorded = outcomes_of(thm(args=["tests", "-k", "not slow"]))
    assert recorded["tests/test_core.py::test_direct"]["outcome"] == "passed"
    blank = outcomes_of(thm(env={"TENET_MODE": "blank"}, args=["tests", "-k", "not slow"]))
    assert blank["tests/test_core.py::test_direct"]["outcome"] == "failed"
    assert "NotImplementedError" in blank["tests/test_core.py::test_direct"]["message"]


def test_fork_mode_reports_the_blank_twin_beside_the_original_outcome(tmp_path, thm):
    write_tree(tmp_path, {
        **REPO,
        "pkg/core.py": """
            def target(x):
                __import__("_tenet_probe").hit()
                return x + 1


            def caller(x):
                return target(x) + 1
        """,
    })
    direct = outcomes_of(thm(env={"TENET_MODE": "fork"}, args=["tests", "-k", "not slow"]))["tests/test_core.py::test_direct"]
    assert direct["outcome"] == "passed"
    assert direct["blank"]["outcome"] == "failed"
