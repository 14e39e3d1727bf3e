"""Hostile files: every kind of file a linter meets in CI.

Each one either lints normally or is exactly one NAN000 finding whose one-line message names
the problem; a good file on either side of it is still reported; nothing hangs (the scans run
in a subprocess with a timeout, where a hang or a crash of the interpreter would show).
"""

import errno
import json
import os
import subprocess
import sys

import pytest

from cli_helpers import TF_LOG, _no_colour_variables, make, nanlint
from nanlint.source import source_lines

__all__ = ["_no_colour_variables", "nanlint"]  # fixtures, imported to be found by pytest

GOOD = [("a_good.py", 3, "NAN102"), ("z_good.py", 3, "NAN102")]  # TF_LOG's one finding
HANG_LIMIT = 120  # seconds: a scan of a handful of files that takes longer is a hang


def scan(root, *args, timeout=HANG_LIMIT):
    """`nanlint check --format json --no-cache ARGS` in ``root``: (exit code, findings)."""
    result = subprocess.run([sys.executable, "-m", "nanlint", "check", "--preview", "--format", "json",
                             "--no-cache", *args], cwd=root, capture_output=True, text=True,
                            timeout=timeout)
    assert result.returncode in (0, 1), f"exit {result.returncode}: {result.stderr[-2000:]}"
    assert result.stderr == "", result.stderr
    return result.returncode, json.loads(result.stdout)["findings"]


def scan_between_good_files(root, hostile):
    """Write ``hostile`` (name → content) between two good files, scan, check the good ones
    are unaffected, and return the findings of the hostile files."""
    make(root, {"a_good.py": TF_LOG, **hostile, "z_good.py": TF_LOG})
    _, findings = scan(root)
    good = [(f["path"], f["line"], f["code"]) for f in findings if f["path"].endswith("good.py")]
    assert good == GOOD
    return [f for f in findings if not f["path"].endswith("good.py")]


def assert_one_nan000(findings, path, *fragments):
    assert [(f["path"], f["code"]) for f in findings] == [(path, "NAN000")], findings
    message = findings[0]["message"]
    assert "\n" not in message and "Traceback" not in message, message
    for fragment in fragments:
        assert fragment.lower() in message.lower(), f"{fragment!r} not in {message!r}"
    return findings[0]


# -- files that lint normally ----------------------------------------------------------------
TF_LOG_CRLF = TF_LOG.replace("\n", "\r\n")
LINTS = {
    "empty": (b"", []),
    "only_comments": (b"# import tensorflow as tf\n# tf.math.log(tf.nn.relu(x))\n#\n", []),
    "bom": (b"\xef\xbb\xbf" + TF_LOG.encode(), [(3, 8)]),
    "crlf": (TF_LOG_CRLF.encode(), [(3, 8)]),
    "mixed_line_endings": (b"import tensorflow as tf\r\np = tf.nn.relu(z)\r"
                           b"# a comment\nloss = tf.math.log(p)\r\n", [(4, 8)]),
    "no_final_newline": (TF_LOG.rstrip("\n").encode(), [(3, 8)]),
    "tabs": (b"import tensorflow as tf\ndef f(z):\n\tp = tf.nn.relu(z)\n"
             b"\treturn tf.math.log(p)\n", [(4, 9)]),
    "form_feeds": (b"import tensorflow as tf\n\x0c\np = tf.nn.relu(z)\n\x0c\n"
                   b"def f():\n    return tf.math.log(p)\n", [(6, 12)]),
    "line_separator_in_a_string": (("import tensorflow as tf\ns = 'a\u2028b\x1cc'\n"
                                    "p = tf.nn.relu(z)\nloss = tf.math.log(p)\n"
                                    ).encode(), [(4, 8)]),
    "latin1_declared": (("# -*- coding: latin-1 -*-\n# Auteur: Andr\xe9\n" + TF_LOG
                         ).encode("latin-1"), [(5, 8)]),
    "cp1252_declared": (("# vim: set fileencoding=cp1252 :\ns = '\u20ac'\n" + TF_LOG
                         ).encode("cp1252"), [(5, 8)]),
    "unary_minus_1000_deep": (("import tensorflow as tf\np = tf.nn.relu(z)\nx = "
                               + "-" * 1000 + "tf.math.log(p)\n").encode(), [(3, 1005)]),
    "attribute_chain_1000_long": (("import tensorflow as tf\np = tf.nn.relu(z)\nx = z"
                                   + ".a" * 1000 + "\nloss = tf.math.log(p)\n").encode(),
                                  [(4, 8)]),
    "sum_of_1000_terms": (("import tensorflow as tf\np = tf.nn.relu(z)\nx = "
                           + " + ".join(["z"] * 999 + ["tf.math.log(p)"]) + "\n").encode(),
                          [(3, 3 + 4 * 999 + 2)]),
}


@pytest.mark.parametrize("name", sorted(LINTS))
def test_lints_normally(tmp_path, name):
    content, expected = LINTS[name]
    findings = scan_between_good_files(tmp_path, {f"{name}.py": content})
    assert [(f["line"], f["column"], f["code"]) for f in findings] == [
        (line, column, "NAN102") for line, column in expected]


def test_code_frames_show_the_right_line_whatever_the_line_breaks(tmp_path):
    # str.splitlines() also splits at form feeds and U+2028: the frame would show the
    # wrong line. The frame must show the line the finding is on.
    make(tmp_path, {"ff.py": LINTS["form_feeds"][0],
                    "sep.py": LINTS["line_separator_in_a_string"][0], "crlf.py": TF_LOG_CRLF})
    result = subprocess.run([sys.executable, "-m", "nanlint", "check", "--preview", "--no-cache"],
                            cwd=tmp_path, capture_output=True, text=True, timeout=HANG_LIMIT)
    assert result.returncode == 1, result.stderr
    assert "6 |     return tf.math.log(p)" in result.stdout
    assert "4 | loss = tf.math.log(p)" in result.stdout
    assert "3 | loss = tf.math.log(p)\n" in result.stdout  # no stray \r
    assert "\r" not in result.stdout


def test_source_lines_split_only_where_python_does():
    assert source_lines("a\r\nb\rc\nd\x0ce\u2028f\x1cg\n") == ["a", "b", "c",
                                                             "d\x0ce\u2028f\x1cg"]
    assert source_lines("") == [] and source_lines("x") == ["x"]
    assert source_lines("x\n\n") == ["x", ""]


def test_a_20000_character_line(tmp_path):
    items = ", ".join(["z"] * 6660)
    line = f"values = [{items}, tf.math.log(p)]"
    assert len(line) > 20_000
    source = f"import tensorflow as tf\np = tf.nn.relu(z)\n{line}\n"
    findings = scan_between_good_files(tmp_path, {"long_line.py": source})
    assert [(f["line"], f["column"], f["code"]) for f in findings] == [
        (3, line.index("tf.math.log") + 1, "NAN102")]


def test_a_5_mb_generated_file(tmp_path):
    # Generated code that never imports TensorFlow (tables, protobuf descriptors) gets the
    # syntax check only; a syntax error at its very end is still found, on the right line.
    table = "".join(f"ENTRY_{i} = ({i}, 'name_{i}', {i * 0.5!r}, None)\n"
                    for i in range(110_000))
    assert len(table) > 5_000_000
    findings = scan_between_good_files(tmp_path, {"table.py": table,
                                                  "broken_table.py": table + "x = (\n"})
    finding = assert_one_nan000(findings, "broken_table.py", "syntax error", "never closed")
    assert finding["line"] == 110_001


# -- files that are one NAN000 ---------------------------------------------------------------
NAN000 = {  # name: (content, line of the finding, fragments of its message)
    "latin1_undeclared": ('x = 1\nname = "caf\xe9"\n'.encode("latin-1"), 2,
                          ["not valid utf-8", "line 2"]),
    "unknown_coding_declaration": (b"# -*- coding: klingon -*-\nx = 1\n", 1,
                                   ["encoding", "klingon"]),
    "declared_utf8_but_latin1": ('# coding: utf-8\nname = "caf\xe9"\n'.encode("latin-1"), 2,
                                 ["not valid utf-8"]),
    "nul_bytes": (b"import tensorflow as tf\nx = 1\x00\n", 1, ["binary", "NUL"]),
    "binary": (bytes(range(256)) * 64, 1, ["binary", "NUL"]),
    "binary_without_nul": (bytes(range(128, 256)) * 8, 1, ["not valid utf-8"]),
    "python2_print": (b"import tensorflow as tf\nprint 'loss', loss\n", 2,
                      ["syntax error", "Python 2"]),
    "python2_except": (b"try:\n    pass\nexcept ValueError, error:\n    pass\n", 3,
                       ["syntax error", "Python 2"]),
    "python2_exec": (b"exec 'x = 1'\n", 1, ["syntax error", "Python 2"]),
    "python2_not_equal": (b"x = 1\nif x <> 2:\n    pass\n", 2, ["syntax error", "Python 2"]),
    "python2_backticks": (b"x = 1\ns = `x`\n", 2, ["syntax error", "Python 2"]),
    "python2_octal": (b"mode = 0777\n", 1, ["syntax error", "octal"]),
    "parentheses_1000_deep": (("import tensorflow as tf\nx = " + "(" * 1000 + "1"
                               + ")" * 1000 + "\n").encode(), 2,
                              ["too many nested parentheses"]),
    "calls_1000_deep": (("import tensorflow as tf\np = tf.nn.relu(z)\nx = "
                         + "tf.math.log(" * 1000 + "p" + ")" * 1000 + "\n").encode(), 3,
                        ["too many nested parentheses"]),
    # libcst's native parser overflows the C stack (the process dies) on these: Python's
    # own parser refuses them first.
    "brackets_3000_deep": (("import tensorflow as tf\nx = " + "[" * 3000 + "]" * 3000
                            + "\n").encode(), 2, ["too many nested parentheses"]),
    "unary_minus_20000_deep": (("import tensorflow as tf\nx = " + "-" * 20000 + "1\n"
                                ).encode(), 1, ["nested too deeply"]),
    # Python parses these, but its compiler refuses them (RecursionError under its default
    # recursion limit): `python` cannot run the file.
    "sum_of_3000_terms": (("import tensorflow as tf\n\n\nx = " + " + ".join(["a"] * 3000)
                           + "\ny = tf.math.log(p)\n").encode(), 4,
                          ["cannot compile", "nested too deeply"]),
    "unary_minus_3000_deep_in_a_function": (
        ("import tensorflow as tf\ndef f(a):\n    return " + "-" * 3000 + "a\n").encode(), 3,
        ["cannot compile", "nested too deeply"]),
    "attributes_3000_deep_in_a_branch": (
        ("import tensorflow as tf\nif tf:\n    x = 1\n    y = a" + ".b" * 3000 + "\n").encode(),
        4, ["cannot compile", "nested too deeply"]),
}


@pytest.mark.parametrize("name", sorted(NAN000))
def test_one_nan000_and_the_scan_goes_on(tmp_path, name):
    content, line, fragments = NAN000[name]
    findings = scan_between_good_files(tmp_path, {f"{name}.py": content})
    finding = assert_one_nan000(findings, f"{name}.py", *fragments)
    assert finding["line"] == line


# -- what is not a regular file, or cannot be read -------------------------------------------
def test_unreadable_file(tmp_path, nanlint, monkeypatch):
    make(tmp_path, {"a_good.py": TF_LOG, "secret.py": TF_LOG, "z_good.py": TF_LOG})
    (tmp_path / "secret.py").chmod(0)
    try:
        if os.geteuid() == 0:  # root reads anything: simulate what a normal user meets
            real_open = os.open

            def refusing_open(path, flags, *args, **kwargs):
                if str(path).endswith("secret.py"):
                    raise PermissionError(errno.EACCES, "Permission denied", str(path))
                return real_open(path, flags, *args, **kwargs)

            monkeypatch.setattr(os, "open", refusing_open)
        code, out, err = nanlint("check", "--format", "json", "--no-cache", cwd=tmp_path)
    finally:
        (tmp_path / "secret.py").chmod(0o644)
    assert (code, err) == (1, "")
    findings = json.loads(out)["findings"]
    assert [(f["path"], f["code"]) for f in findings] == [
        ("a_good.py", "NAN102"), ("secret.py", "NAN000"), ("z_good.py", "NAN102")]
    assert findings[1]["message"] == "cannot read file: Permission denied"


def test_broken_symlink(tmp_path):
    make(tmp_path, {"a_good.py": TF_LOG, "z_good.py": TF_LOG})
    (tmp_path / "gone.py").symlink_to(tmp_path / "deleted.py")
    _, findings = scan(tmp_path)
    [finding] = [f for f in findings if f["path"] == "gone.py"]
    assert finding["code"] == "NAN000"
    assert "broken symbolic link" in finding["message"] and "deleted.py" in finding["message"]
    assert len(findings) == 3


def test_symlink_loops_in_a_folder(tmp_path):
    make(tmp_path, {"a_good.py": TF_LOG, "pkg/z_good.py": TF_LOG})
    (tmp_path / "pkg" / "again").symlink_to(tmp_path)  # a folder loop: not followed
    (tmp_path / "pkg" / "self").symlink_to(tmp_path / "pkg" / "self")
    (tmp_path / "ping.py").symlink_to(tmp_path / "pong.py")  # a file loop
    (tmp_path / "pong.py").symlink_to(tmp_path / "ping.py")
    _, findings = scan(tmp_path)
    assert [(f["path"], f["code"]) for f in findings] == [
        ("a_good.py", "NAN102"), ("ping.py", "NAN000"), ("pkg/z_good.py", "NAN102"),
        ("pong.py", "NAN000")]
    assert all("symbolic link loop" in f["message"] for f in findings if f["code"] == "NAN000")


def test_fifo_named_py_does_not_hang(tmp_path):
    # Opening a FIFO for reading waits for a writer, forever: nanlint must not.
    make(tmp_path, {"a_good.py": TF_LOG, "z_good.py": TF_LOG})
    os.mkfifo(tmp_path / "x.py")
    for args in ((), ("x.py", "a_good.py", "z_good.py")):  # found in a folder, or named
        _, findings = scan(tmp_path, *args, timeout=60)
        assert [(f["path"], f["code"]) for f in findings] == [
            ("a_good.py", "NAN102"), ("x.py", "NAN000"), ("z_good.py", "NAN102")]
        assert findings[1]["message"] == ("not a regular file but a named pipe (FIFO), "
                                          "not Python source")


def test_directory_named_py(tmp_path):
    # A folder named x.py is a folder: walked, not read. A link named .py to a folder is
    # not followed when walking, so it is read, and is not a regular file.
    make(tmp_path, {"a_good.py": TF_LOG, "x.py/z_good.py": TF_LOG})
    (tmp_path / "link.py").symlink_to(tmp_path / "x.py")
    _, findings = scan(tmp_path)
    assert [(f["path"], f["code"]) for f in findings] == [
        ("a_good.py", "NAN102"), ("link.py", "NAN000"), ("x.py/z_good.py", "NAN102")]
    assert findings[1]["message"] == "not a regular file but a directory, not Python source"
    _, findings = scan(tmp_path, "x.py")  # named on the command line: walked too
    assert [f["path"] for f in findings] == ["x.py/z_good.py"]


def test_a_folder_of_10000_empty_files(tmp_path):
    folder = tmp_path / "many"
    folder.mkdir()
    for index in range(10_000):
        (folder / f"m{index:05}.py").touch()
    make(tmp_path, {"a_good.py": TF_LOG, "many/z_good.py": TF_LOG})
    for args in (("--no-cache",), ()):  # the cache holds 10,000 files of one content
        result = subprocess.run([sys.executable, "-m", "nanlint", "check", "--preview", "--format", "json",
                                 *args], cwd=tmp_path, capture_output=True, text=True,
                                timeout=HANG_LIMIT)
        assert result.returncode == 1, result.stderr
        document = json.loads(result.stdout)
        assert document["files_scanned"] == 10_002
        assert [(f["path"], f["code"]) for f in document["findings"]] == [
            ("a_good.py", "NAN102"), ("many/z_good.py", "NAN102")]


def test_python_warnings_of_the_checked_code_stay_out_of_the_output(tmp_path):
    # `x is "a"` warns when compiled; a long statement makes nanlint compile the file. The
    # warning is the file's business (Python gives it when the file runs), not nanlint's.
    long = "x = [" + ", ".join(["1"] * 4000) + "]\n"
    make(tmp_path, {"a.py": 'import tensorflow as tf\n\n\ndef f(mode):\n'
                            '    return 1 if mode is "constant" else 0\n' + long})
    for jobs in ("--jobs=1", "--jobs=2"):
        result = subprocess.run([sys.executable, "-m", "nanlint", "check", "--preview", "--no-cache", jobs],
                                cwd=tmp_path, capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, result.stdout + result.stderr
        assert "Warning" not in result.stderr + result.stdout, result.stderr
