"""_tenet_mutation.py: pytest against mutants of one module, each in a forked child, nothing on disk."""

import base64
import json
import subprocess
import sys

from conftest import MARK, helper_env, write_tree

GOOD = "def add(a, b):\n    return a + b\n"


def run_worker(tmp_path, requests):
    write_tree(tmp_path, {"calc.py": GOOD, "test_calc.py": "from calc import add\n\ndef test_add():\n    assert add(2, 3) == 5\n"})
    lines = "".join(json.dumps({"timeout": 20, "args": ["-q", "-p", "no:cacheprovider", "test_calc.py"], "output": False, **r}) + "\n" for r in requests)
    completed = subprocess.run(
        [sys.executable, "-m", "_tenet_mutation", "--target", str(tmp_path / "calc.py")],
        cwd=tmp_path, env=helper_env({}), input=lines, capture_output=True, text=True, timeout=120,
    )
    answers = [json.loads(chunk.split("\n", 1)[0]) for chunk in completed.stdout.split(MARK)[1:]]
    return {a["id"]: a for a in answers}


def source(text):
    return base64.b64encode(text.encode()).decode()


def test_the_file_passes_a_mutant_that_breaks_it_fails_and_the_file_stays_as_it_was(tmp_path):
    answers = run_worker(tmp_path, [
        {"id": "baseline", "source": None},
        {"id": "minus", "source": source("def add(a, b):\n    return a - b\n")},
        {"id": "broken", "source": source("def add(a, b)\n    return a\n")},
    ])
    assert answers["baseline"]["status"] == "passed"
    assert answers["baseline"]["loaded"] is True
    assert answers["minus"]["status"] == "failed"
    assert answers["broken"]["status"] == "invalid"
    # The mutants went to the tests through the import hook, never to the file.
    assert (tmp_path / "calc.py").read_text() == GOOD


def test_a_mutant_that_hangs_is_killed_at_its_timeout(tmp_path):
    answers = run_worker(tmp_path, [{"id": "loop", "timeout": 1, "source": source("def add(a, b):\n    while True:\n        pass\n")}])
    assert answers["loop"]["status"] == "timeout"
