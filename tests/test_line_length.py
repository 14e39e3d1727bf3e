"""A fix keeps the project's line length the way a formatter would: the outermost brackets
break first, an expression the user wrapped is never joined into one long line, and the
line length is found where ruff finds it."""
import ast
import dataclasses
import textwrap

import pytest

from cli_helpers import make
from conftest import options_for, run_cli
from nanlint.analysis.settings import Settings
from nanlint.fixing import SAFETIES, fix_source

UNSAFE = SAFETIES["unsafe"]

GUARDED = textwrap.dedent("""\
    import tensorflow as tf


    class L(tf.keras.layers.Layer):
        def call(self, x, mask):
            n = tf.reduce_sum(tf.cast(mask, tf.float32))
            b = tf.where(tf.equal(n, 0.0), 0.0, tf.reduce_sum(x) / n)
            return b
    """)

WRAPPED = textwrap.dedent("""\
    import tensorflow as tf


    class Pool(tf.keras.layers.Layer):
        def call(self, s):
            ss = tf.matmul(s, s, transpose_a=True)
            i_s = tf.eye(4, dtype=ss.dtype)
            ortho_loss = tf.norm(
                ss / tf.norm(ss, axis=(-1, -2), keepdims=True) - i_s / tf.norm(i_s),
                axis=(-1, -2),
            )
            return ortho_loss
    """)


def _fixed(source, codes, line_length):
    options = dataclasses.replace(options_for(codes), settings=Settings(line_length=line_length))
    return fix_source(source, "case.py", options, UNSAFE)


def test_the_outermost_brackets_break_first_and_an_operand_breaks_inside_them():
    outcome = _fixed(GUARDED, ["NAN204"], 70)
    assert outcome.fixed == 1
    assert outcome.text.splitlines()[6:12] == [
        "        b = tf.where(",
        "            tf.equal(n, 0.0),",
        "            0.0,",
        "            tf.reduce_sum(x) / tf.where(",
        "                tf.equal(n, 0.0), tf.ones_like(n), n",
        "            )"], outcome.text
    assert max(len(line) for line in outcome.text.splitlines()) <= 70
    ast.parse(outcome.text)


def test_a_wrapped_expression_is_not_joined_into_one_long_line():
    outcome = _fixed(WRAPPED, ["NAN202"], 88)
    assert outcome.fixed == 1
    assert "tf.sqrt(" in outcome.text, outcome.text
    assert max(len(line) for line in outcome.text.splitlines()) <= 88, outcome.text
    ast.parse(outcome.text)


def test_a_wrapped_expression_that_fits_on_one_line_is_written_on_one():
    outcome = _fixed(WRAPPED, ["NAN202"], 160)
    assert "        ortho_loss = tf.sqrt(tf.reduce_sum(tf.square(" in outcome.text, outcome.text


def _longest_fixed_line(tmp_path, files, checked, cwd):
    make(tmp_path, files, git=False)
    (cwd).mkdir(parents=True, exist_ok=True)
    result = run_cli("check", "--fix", "--unsafe-fixes", str(tmp_path / checked), cwd=cwd)
    assert result.returncode in (0, 1), result.stderr
    text = (tmp_path / checked).read_text()
    assert text != GUARDED, result.stdout
    return max(len(line) for line in text.splitlines())


def test_ruff_line_length_found_without_a_repository_or_a_configuration(tmp_path):
    """No .git, no nanlint configuration, run from another folder: ruff's line-length in the
    file's pyproject.toml, as ruff finds it."""
    files = {"project/pyproject.toml": "[tool.ruff]\nline-length = 60\n",
             "project/model.py": GUARDED}
    assert _longest_fixed_line(tmp_path, files, "project/model.py", tmp_path / "elsewhere") <= 60


def test_the_nearest_formatter_setting_governs_each_file(tmp_path):
    """A nanlint configuration without line-length at the root, black's 120 there, and a
    subproject whose ruff.toml says 60."""
    files = {".nanlint.yaml": "select: [NAN]\n",
             "pyproject.toml": "[tool.black]\nline-length = 120\n",
             "sub/ruff.toml": "line-length = 60\n",
             "sub/model.py": GUARDED, "model.py": GUARDED}
    (tmp_path / ".git").mkdir(parents=True)
    assert _longest_fixed_line(tmp_path, files, "sub/model.py", tmp_path) <= 60
    assert _longest_fixed_line(tmp_path, files, "model.py", tmp_path) > 60


def test_a_configuration_gives_each_file_its_formatter_line_length(tmp_path):
    """What the language server asks (Config.options_for): the same answer per file."""
    from nanlint.config import Config

    make(tmp_path, {"pyproject.toml": "[tool.ruff]\nline-length = 100\n",
                    "sub/pyproject.toml": "[tool.black]\nline-length = 70\n",
                    "own/pyproject.toml": "[tool.ruff]\nline-length = 60\n"})
    config = Config(root=tmp_path)
    lengths = {name: config.options_for(tmp_path / name / "model.py").settings.line_length
               for name in ("sub", "own", "sub/deeper", ".")}
    assert lengths == {"sub": 70, "own": 60, "sub/deeper": 70, ".": 100}
    assert Config(root=tmp_path, line_length=90).options_for(
        tmp_path / "own" / "model.py").settings.line_length == 90


COMMENTED = textwrap.dedent("""\
    import tensorflow as tf


    def ratio(y, values, weights):
        count = tf.reduce_sum(tf.cast(y > 0, tf.float32))
        out = tf.identity(values * weights / count, "#x")  # noqa: E501
        return out
    """)


@pytest.mark.parametrize("comment, first", [("# noqa: E501", True), ("# type: ignore", True),
                                             ("# the ratio of the weights", False)])
def test_a_broken_fix_keeps_a_pragma_comment_of_its_line_on_its_first_line(comment, first):
    """flake8 and ruff read a `# noqa` on the line where they report, the statement's first
    (ruff looks further only for a multi-line string or a backslash continuation): a fix
    broken over several lines does not carry it to the closing bracket's. Another comment
    goes after the closing bracket, as formatters put it."""
    outcome = _fixed(COMMENTED.replace("# noqa: E501", comment), ["NAN101"], 50)
    assert outcome.fixed == 1, outcome.text
    lines = outcome.text.splitlines()
    assert lines[5].startswith("    out = tf.identity("), outcome.text
    assert lines[5].endswith(f"(  {comment}") == first, outcome.text
    assert lines.count("    )" if first else f"    )  {comment}") == 1, outcome.text
    assert outcome.text.count(comment) == 1 and '"#x"' in outcome.text
    ast.parse(outcome.text)


LOG_SOFTMAX = textwrap.dedent("""\
    import tensorflow as tf


    def inline(labels_for_each_example, logits_of_the_head):
        return -tf.reduce_sum(labels_for_each_example * tf.math.log(tf.nn.softmax(logits_of_the_head, axis=-1)), axis=-1)


    def through_a_name(labels_for_each_example, logits_of_the_head):
        probabilities = tf.nn.softmax(logits_of_the_head)
        return -tf.reduce_sum(labels_for_each_example * tf.math.log(probabilities), axis=-1, keepdims=False)
    """)


def test_a_fix_that_leaves_a_line_over_the_length_breaks_it_whether_or_not_it_removes_a_line():
    """`log(softmax(z))` to `log_softmax(z)` makes a long line shorter but still too long;
    through a name, the fix also removes the softmax's line: both break like any fix."""
    outcome = _fixed(LOG_SOFTMAX, ["NAN103"], 88)
    assert outcome.fixed == 2, outcome.text
    assert max(len(line) for line in outcome.text.splitlines()) <= 88, outcome.text
    assert outcome.text.count("tf.nn.log_softmax(") == 2 and "probabilities" not in outcome.text
    ast.parse(outcome.text)
