"""_tenet_probe's naming: chains must not depend on the process or the order tests ran in."""

import json

import _tenet_probe as probe


def test_code_compiled_at_run_time_loses_the_counters_in_its_names():
    # networkx's argmap and the decorator package number what they compile, process-wide.
    assert probe.generated_name("<decorator-gen-12>") == probe.generated_name("<decorator-gen-345>")
    assert probe.generated_name("<argmap_foo_0x7f01>") == probe.generated_name("<argmap_foo_0x9a22>")
    assert probe.generated_name("<decorator-gen-12>", "argmap_foo_12.inner_3") == ("<decorator-gen>", "argmap_foo.inner")
    # A file of the repository keeps its name and its qualname.
    assert probe.generated_name("pkg/mod_2.py", "f_2") == ("pkg/mod_2.py", "f_2")


def test_the_standard_library_and_generated_code_are_outside_the_workspace(tmp_path):
    assert probe.outside_workspace(json.__file__)
    assert probe.outside_workspace("<string>")
