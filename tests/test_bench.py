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


def test_the_big_file_is_measured_for_memory():
    assert bench.BIG_LINES == 60000
    assert abs(len(bench.dense_source(bench.BIG_LINES).splitlines()) - 60000) < 10


def test_a_big_file_needs_about_the_memory_of_its_parse(tmp_path):
    """Peak memory, not time: a file past the big-file size (32,000 lines) checked by
    nanlint, against libcst parsing it alone, each in a process of its own."""
    big = tmp_path / "big.py"
    big.write_text(bench.dense_source(32000), encoding="utf-8")
    _, parse = bench.measure([sys.executable, bench.__file__, "--parse-only", "--jobs=1",
                              str(big)], str(tmp_path))
    _, check = bench.measure([sys.executable, "-m", "nanlint", "check", "--quiet",
                              "--exit-zero", "--jobs=1", "--no-cache", str(big)],
                             str(tmp_path))
    assert check / parse < 1.25, (check, parse)


def test_the_scan_checks_every_file_the_floor_parses(tmp_path):
    import subprocess

    corpus = tmp_path / "corpus"
    for name in ("model.py", "tests/test_model.py", "model_test.py"):
        (corpus / name).parent.mkdir(parents=True, exist_ok=True)
        (corpus / name).write_text("import tensorflow as tf\n", encoding="utf-8")
    floor = subprocess.run([sys.executable, bench.__file__, "--parse-only", "--jobs=1",
                            str(corpus)], capture_output=True, text=True).stdout
    scan = subprocess.run([sys.executable, "-m", "nanlint", "check", "--no-cache",
                           f"--config={bench.every_file_config(str(tmp_path))}", str(corpus)],
                          capture_output=True, text=True, cwd=tmp_path).stdout
    assert "parsed 3 of 3 files" in floor
    assert "in 3 files" in scan, scan
