"""_tenet_launch.py: runs a command and takes everything it started down with it."""

import os
import subprocess
import sys
import time

from conftest import HELPERS

LAUNCH = os.path.join(HELPERS, "_tenet_launch.py")


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is no longer running.
    try:
        with open("/proc/%d/stat" % pid) as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_ends_as_the_command_did():
    assert subprocess.run([sys.executable, "-I", "-S", LAUNCH, sys.executable, "-c", "raise SystemExit(7)"], timeout=30).returncode == 7


def test_kills_what_the_command_left_behind_through_setsid(tmp_path):
    pid_file = tmp_path / "pid"
    # The command starts a process in a session of its own, which outlives it, and ends.
    script = (
        "import subprocess, sys\n"
        "p = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'], start_new_session=True)\n"
        "open(%r, 'w').write(str(p.pid))\n" % str(pid_file)
    )
    completed = subprocess.run([sys.executable, "-I", "-S", LAUNCH, sys.executable, "-c", script], timeout=30)
    assert completed.returncode == 0
    orphan = int(pid_file.read_text())
    deadline = time.time() + 5
    while alive(orphan) and time.time() < deadline:
        time.sleep(0.05)
    assert not alive(orphan)
