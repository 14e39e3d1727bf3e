"""`nanlint check -` reads the source from standard input (editors), `--stdin-filename`
says which file it is."""

import json
import subprocess
import sys

import pytest

from cli_helpers import TF_LOG, TF_MIXED, assert_one_line_error, codes_at, make
from conftest import run_cli
from nanlint.runner import CACHE_FOLDER


def check_stdin(source, *args, cwd):
    result = run_cli("check", *args, cwd=cwd, stdin=source)
    assert "Traceback" not in result.stderr, result.stderr
    return result


def test_stdin_is_reported_as_a_dash_and_exits_like_a_file(tmp_path):
    make(tmp_path, {})
    result = check_stdin(TF_LOG, "-", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout.startswith("-:3:8: NAN102 ")
    assert result.stdout.endswith("Found 1 finding (1 error) in 1 of 1 file. "
                                  "1 fixable with `--unsafe-fixes`.\n")
    assert check_stdin("import tensorflow as tf\n", "-", cwd=tmp_path).returncode == 0


def test_stdin_filename_gives_the_same_output_as_the_file(tmp_path):
    make(tmp_path, {"pkg/train.py": TF_MIXED})
    from_file = run_cli("check", "--no-cache", "pkg/train.py", cwd=tmp_path)
    from_stdin = check_stdin(TF_MIXED, "-", "--stdin-filename", "pkg/train.py", cwd=tmp_path)
    assert from_file.returncode == from_stdin.returncode == 1
    assert from_stdin.stdout == from_file.stdout
    assert "pkg/train.py:4:5: NAN102 " in from_stdin.stdout


def test_stdin_filename_alone_reads_standard_input(tmp_path):
    make(tmp_path, {})
    result = check_stdin(TF_LOG, "--stdin-filename", "x.py", "--format", "json", cwd=tmp_path)
    document = json.loads(result.stdout)
    assert document["files_scanned"] == 1
    assert codes_at(document) == [("x.py", 3, "NAN102")]


def test_per_file_ignores_of_the_stdin_filename_apply(tmp_path):
    make(tmp_path, {".nanlint.yaml": 'per-file-ignores:\n  "tests/*": [NAN102]\n'})
    ignored = check_stdin(TF_LOG, "-", "--stdin-filename", "tests/test_x.py", cwd=tmp_path)
    assert ignored.returncode == 0 and ignored.stdout == "No findings in 1 file.\n"
    elsewhere = check_stdin(TF_LOG, "-", "--stdin-filename", "src/x.py", cwd=tmp_path)
    assert elsewhere.returncode == 1


def test_an_excluded_stdin_filename_is_still_checked(tmp_path):
    # As for a file named on the command line (ruff without --force-exclude).
    make(tmp_path, {".nanlint.yaml": "exclude: [generated/**]\n"})
    result = check_stdin(TF_LOG, "-", "--stdin-filename", "generated/x.py", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout.startswith("generated/x.py:3:8: NAN102 ")


def test_stdin_writes_no_cache(tmp_path):
    make(tmp_path, {})
    assert check_stdin(TF_LOG, "-", "--stdin-filename", "x.py", cwd=tmp_path).returncode == 1
    assert not (tmp_path / CACHE_FOLDER).exists()


def test_empty_stdin_is_clean(tmp_path):
    make(tmp_path, {})
    result = check_stdin("", "-", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (0, "No findings in 1 file.\n")


def test_undecodable_stdin_is_one_nan000_finding(tmp_path):
    make(tmp_path, {})
    result = subprocess.run([sys.executable, "-m", "nanlint", "check", "-", "-q"],
                            cwd=tmp_path, input=b"x = '\xff'\n", capture_output=True)
    assert result.returncode == 1
    assert result.stderr == b""
    assert result.stdout.startswith(b"-:1:6: NAN000 error: not valid utf-8 (byte 0xff at line 1)")


@pytest.mark.parametrize("args, fragment", [
    (["-", "other.py"], "`-` (standard input) cannot be combined with other paths"),
    (["--stdin-filename", "x.py", "other.py"], "--stdin-filename needs `-`"),
])
def test_stdin_usage_errors(tmp_path, args, fragment):
    make(tmp_path, {"other.py": TF_LOG})
    result = check_stdin(TF_LOG, *args, cwd=tmp_path)
    assert result.returncode == 2
    assert_one_line_error(result.stderr, fragment)


def test_fixing_standard_input_prints_the_fixed_source(tmp_path):
    make(tmp_path, {})
    fixed = check_stdin(TF_LOG, "-", "--fix", "--unsafe-fixes", cwd=tmp_path)
    assert fixed.returncode == 0
    assert fixed.stdout == TF_LOG.replace("tf.math.log(p)", "tf.math.log(p + 1e-7)")
    assert fixed.stderr == ""
    safe_only = check_stdin(TF_LOG, "-", "--fix", "--stdin-filename", "x.py", cwd=tmp_path)
    assert safe_only.returncode == 1 and safe_only.stdout == TF_LOG
    assert safe_only.stderr.startswith("x.py:3:8: NAN102 ")
    diff = check_stdin(TF_LOG, "-", "--diff", "--unsafe-fixes", cwd=tmp_path)
    assert diff.returncode == 1
    assert diff.stdout.startswith("--- -\n+++ -\n") and "+loss = tf.math.log(p + 1e-7)" in diff.stdout


def test_fixing_a_notebook_from_standard_input_prints_the_fixed_notebook(tmp_path):
    from test_notebooks import cells

    make(tmp_path, {})
    data = cells("import tensorflow as tf\n", "loss = tf.math.log(tf.nn.softmax(z))\n").decode()
    fixed = check_stdin(data, "--fix", "--stdin-filename", "nb.ipynb", "-", cwd=tmp_path)
    assert fixed.returncode == 0 and fixed.stderr == ""
    assert json.loads(fixed.stdout)["cells"][2]["source"] == ["loss = tf.nn.log_softmax(z)\n"]
    diff = check_stdin(data, "--diff", "--stdin-filename", "nb.ipynb", "-", cwd=tmp_path)
    assert diff.returncode == 1 and '+    "loss = tf.nn.log_softmax(z)\\n"' in diff.stdout
    clean = check_stdin(fixed.stdout, "--fix", "--stdin-filename", "nb.ipynb", "-",
                        cwd=tmp_path)
    assert (clean.returncode, clean.stdout) == (0, fixed.stdout)
