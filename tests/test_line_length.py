"""A fix keeps the project's line length the way a formatter would: the outermost brackets
break first, an expression the user wrapped is never joined into one long line, and the
line length is found where ruff finds it."""
import ast
import dataclasses
import textwrap

from cli_helpers import make  # noqa: F401
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
