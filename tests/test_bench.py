"""The benchmark script measures nanlint as pip installs it: byte-compiled."""

import importlib.util
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "benchmarks"))
import bench  # noqa: E402


MODULES = ("nanlint.engine", "nanlint.analysis.flow", "nanlint.rules.log_of_zero")


def test_the_benchmark_byte_compiles_nanlint_and_its_rules_first():
    compiled_files = {}
    for module in MODULES:
        source = importlib.util.find_spec(module).origin
        compiled_files[source] = importlib.util.cache_from_source(source)
        if os.path.exists(compiled_files[source]):
            os.remove(compiled_files[source])
    folders = bench.byte_compile()
    assert {Path(folder).name for folder in folders} == {"nanlint", "rules"}
    for source, compiled in compiled_files.items():
        assert os.path.exists(compiled), compiled
        assert os.path.getmtime(compiled) >= os.path.getmtime(source)


def test_the_dense_file_has_the_lines_the_issue_names():
    source = bench.dense_source()
    assert abs(len(source.splitlines()) - 18000) < 10
    assert source.count("tf.math.log(p) / tf.norm(a)") > 3500
