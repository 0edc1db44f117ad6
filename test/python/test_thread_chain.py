"""A chain reached in a thread the test started names the test's line where it started the thread."""

from conftest import outcomes_of, write_tree

REPO = {
    "pkg/__init__.py": "",
    "pkg/core.py": """
        def target(x):
            __import__("_tenet_probe").hit()
            raise NotImplementedError
    """,
    "tests/test_thread.py": """
        import threading

        from pkg.core import target


        def test_started_here():
            go, done, out = threading.Event(), threading.Event(), []

            def work():
                go.wait()
                try:
                    target(1)
                except NotImplementedError:
                    out.append("blank")
                done.set()

            worker = threading.Thread(target=work)
            worker.start()  # START
            go.set()
            done.wait()  # the test waits here while the worker calls the target
            worker.join()
            assert out == []
    """,
}


def test_the_entry_line_is_where_the_thread_was_started(tmp_path, thm):
    write_tree(tmp_path, REPO)
    start = next(
        number
        for number, line in enumerate((tmp_path / "tests" / "test_thread.py").read_text().splitlines(), 1)
        if "# START" in line
    )
    test = outcomes_of(thm(args=["tests"]))["tests/test_thread.py::test_started_here"]
    assert test["outcome"] == "failed"
    head, *rest = test["chain"]
    assert head["name"] == "tests/test_thread.py::test_started_here"
    # Without the thread's start noted, the line is wherever the test's own thread is when the
    # worker calls the target (here: go.set() or done.wait(), never the start).
    assert head["line"] == start
    assert rest[-1]["name"] == "pkg/core.py::target"
