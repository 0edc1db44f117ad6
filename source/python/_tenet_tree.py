"""What the files of a workspace are, and removing some of them: tenet's guard on the evaluation.

``python3 _tenet_tree.py hash ROOT`` prints one JSON object, the workspace-relative path of every
file under ROOT and a digest of its content (a symbolic link's: of where it points), leaving out
caches and tenet's own folder. tenet takes it when the agent starts and again before the
evaluation: what differs is what the agent's commands did to the repository (a test file
rewritten, a conftest.py planted), which the evaluation must not run with.

``python3 _tenet_tree.py remove ROOT PATH...`` removes those files (what the agent added).

It runs inside the sandbox (a container holds its own copy of the workspace). Standard library
only; ``-I -S`` keeps the workspace's modules out of its way.
"""

import hashlib
import json
import os
import sys

# Folders that are no part of the repository's code: tenet's own, caches, version control.
SKIPPED = {".tenet", "__pycache__", ".pytest_cache", ".git", ".hg", ".svn", "node_modules", ".tox", ".nox", ".mypy_cache", ".ruff_cache"}


def digest(path):
    if os.path.islink(path):
        return "link:" + os.readlink(path)
    sha = hashlib.sha1()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            sha.update(block)
    return sha.hexdigest()


def tree(root):
    files = {}
    for folder, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if d not in SKIPPED and not os.path.islink(os.path.join(folder, d))]
        for name in names:
            path = os.path.join(folder, name)
            try:
                files[os.path.relpath(path, root).replace(os.sep, "/")] = digest(path)
            except OSError:
                continue  # gone meanwhile, or unreadable: nothing to compare
    return files


def remove(root, paths):
    base = os.path.realpath(root)
    for rel in paths:
        path = os.path.join(base, rel)
        # Only inside the workspace, and never through a folder link out of it.
        inside = os.path.realpath(os.path.dirname(path))
        if (inside == base or inside.startswith(base + os.sep)) and os.path.lexists(path):
            os.remove(path)


if __name__ == "__main__":
    if sys.argv[1] == "hash":
        json.dump(tree(sys.argv[2]), sys.stdout)
    elif sys.argv[1] == "remove":
        remove(sys.argv[2], sys.argv[3:])
