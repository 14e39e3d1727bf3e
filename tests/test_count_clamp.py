"""NAN101's count clamp, `total / maximum(count, 1)`, is a safe fix only where the value
analysis proves the denominator is 0 or at least 1 (whole numbers, never negative).

A fraction, a masked sum of continuous values and a sum of weights can lie between 0 and 1,
where the clamp changes the result: they are still reported, and may get an unsafe fix (an
epsilon), but `--fix` must leave them alone. A sum of casts of booleans keeps its safe clamp.
Each case is written in TF2, TF1 (`tensorflow.compat.v1`) and Keras 3 (`keras.ops`) style.
"""

import textwrap

import pytest

from conftest import options_for
from nanlint.engine import lint_source
from nanlint.fixing import SAFETIES, fix_source

HEADER = ("import keras\nimport tensorflow as tf\nimport tensorflow.compat.v1 as tf1\n"
          "from keras import ops\n\n\n")

# A DropBlock-style rescaling: `keep` is a 0/1 mask, but its sum over its size is the
# fraction kept, in [0, 1]; clamped at 1, the rescaling would do nothing.
FRACTION = {
    "tf2": """
        def drop_block(x, keep_prob):
            keep = tf.cast(tf.random.uniform(tf.shape(x)) < keep_prob, tf.float32)
            fraction = tf.reduce_sum(keep) / tf.cast(tf.size(keep), tf.float32)
            return x * keep / fraction  # the division
        """,
    "tf1": """
        def drop_block(x, keep_prob):
            keep = tf1.to_float(tf1.random_uniform(tf1.shape(x)) < keep_prob)
            fraction = tf1.reduce_sum(keep) / tf1.to_float(tf1.size(keep))
            return tf1.div(x * keep, fraction)  # the division
        """,
    "keras3": """
        def drop_block(x, keep_prob):
            keep = ops.cast(keras.random.uniform(ops.shape(x)) < keep_prob, "float32")
            fraction = ops.sum(keep) / ops.cast(ops.size(keep), "float32")
            return ops.divide(x * keep, fraction)  # the division
        """,
}

# A soft nearest-neighbour weighting of a support set: the masked row sum of exp(-d) is
# often far below 1.
MASKED_CONTINUOUS_SUM = {
    "tf2": """
        def soft_neighbours(d, labels, support, temperature):
            same = tf.cast(tf.equal(labels[:, None], support[None, :]), tf.float32)
            weights = tf.exp(-d / temperature) * same
            return tf.reduce_sum(weights * d, axis=1) / tf.reduce_sum(weights, axis=1)  # the division
        """,
    "tf1": """
        def soft_neighbours(d, labels, support, temperature):
            same = tf1.to_float(tf1.equal(tf1.expand_dims(labels, 1), tf1.expand_dims(support, 0)))
            weights = tf1.exp(-d / temperature) * same
            return tf1.reduce_sum(weights * d, 1) / tf1.reduce_sum(weights, 1)  # the division
        """,
    "keras3": """
        def soft_neighbours(d, labels, support, temperature):
            same = ops.cast(ops.equal(labels[:, None], support[None, :]), "float32")
            weights = ops.exp(-d / temperature) * same
            return ops.sum(weights * d, axis=1) / ops.sum(weights, axis=1)  # the division
        """,
}

# Sample weights are a mask only by their name: they may be 0.25 each.
SAMPLE_WEIGHT_SUM = {
    "tf2": """
        def weighted_mean(losses, sample_weight):
            return tf.reduce_sum(losses * sample_weight) / tf.reduce_sum(sample_weight)  # the division
        """,
    "tf1": """
        def weighted_mean(losses, sample_weight):
            return tf1.div(tf1.reduce_sum(losses * sample_weight), tf1.reduce_sum(sample_weight))  # the division
        """,
    "keras3": """
        def weighted_mean(losses, sample_weight):
            return ops.sum(losses * sample_weight) / ops.sum(sample_weight)  # the division
        """,
}

# A count of a boolean mask: 0 or at least 1, so the clamp is exact where the mean was finite.
BOOLEAN_MASK_COUNT = {
    "tf2": """
        def masked_mean(losses, labels):
            valid = tf.cast(tf.not_equal(labels, -1), tf.float32)
            return tf.reduce_sum(losses * valid) / tf.reduce_sum(valid)  # the division
        """,
    "tf1": """
        def masked_mean(losses, labels):
            valid = tf1.to_float(tf1.not_equal(labels, -1))
            return tf1.reduce_sum(losses * valid) / tf1.reduce_sum(valid)  # the division
        """,
    "keras3": """
        def masked_mean(losses, labels):
            valid = ops.cast(ops.not_equal(labels, -1), "float32")
            return ops.sum(losses * valid) / ops.sum(valid)  # the division
        """,
}

NOT_COUNTS = [pytest.param(cases[style], id=f"{name}-{style}")
              for name, cases in (("fraction", FRACTION),
                                  ("masked-continuous-sum", MASKED_CONTINUOUS_SUM),
                                  ("sample-weight-sum", SAMPLE_WEIGHT_SUM))
              for style in ("tf2", "tf1", "keras3")]


def _source(case: str) -> str:
    return HEADER + textwrap.dedent(case).lstrip("\n")


def _fixed_division(text: str) -> list:
    """The statement that ends with `# the division`, on one line (a fix may break it inside
    its brackets to keep the line length)."""
    lines = text.splitlines()
    end = next(i for i, line in enumerate(lines) if line.endswith("# the division"))
    start = end
    while sum(line.count("(") - line.count(")") for line in lines[start:end + 1]) < 0:
        start -= 1
    joined = " ".join(" ".join(lines[start:end + 1]).split())
    return [joined.replace("( ", "(").replace(" )", ")")]


def _division(source: str):
    """The one NAN101 finding, on the line marked `# the division`."""
    line = next(number for number, text in enumerate(source.splitlines(), 1)
                if text.endswith("# the division"))
    findings = [f for f in lint_source(source, "case.py", options_for()) if f.code == "NAN101"]
    assert [f.line for f in findings] == [line], [(f.line, f.message) for f in findings]
    return findings[0]


@pytest.mark.parametrize("case", NOT_COUNTS)
def test_a_value_not_proven_a_count_gets_no_safe_fix(case):
    source = _source(case)
    finding = _division(source)
    if finding.fix is not None:
        assert finding.fix["safety"] == "unsafe", finding.fix
        assert "maximum" not in finding.fix["description"], finding.fix
    outcome = fix_source(source, "case.py", options_for(), SAFETIES["safe"])
    assert outcome.text == source and outcome.fixed == 0


@pytest.mark.parametrize("case", NOT_COUNTS)
def test_a_value_not_proven_a_count_is_offered_an_epsilon(case):
    """The unsafe fix adds an epsilon: it changes the result only near 0."""
    source = _source(case)
    outcome = fix_source(source, "case.py", options_for(), SAFETIES["unsafe"])
    changed = _fixed_division(outcome.text)
    assert len(changed) == 1 and ("1e-07" in changed[0] or "1e-7" in changed[0]), changed
    assert "maximum" not in changed[0]


@pytest.mark.parametrize("style", ["tf2", "tf1", "keras3"])
def test_a_boolean_mask_count_keeps_its_safe_clamp(style):
    source = _source(BOOLEAN_MASK_COUNT[style])
    finding = _division(source)
    assert finding.fix is not None and finding.fix["safety"] == "safe", finding.fix
    outcome = fix_source(source, "case.py", options_for(), SAFETIES["safe"])
    prefix = {"tf2": "tf", "tf1": "tf1", "keras3": "ops"}[style]
    fixed = _fixed_division(outcome.text)
    assert outcome.fixed == 1 and f"/ {prefix}.maximum(" in fixed[0], fixed
    assert fixed[0].endswith(", 1) # the division"), fixed


def test_the_help_line_names_the_clamp_for_a_convention_only_as_a_condition():
    """A `sample_weight` sum is a count only if the weights are 0/1: the help line says so,
    and leads with the epsilon."""
    finding = _division(_source(SAMPLE_WEIGHT_SUM["tf2"]))
    assert finding.suggestion.startswith("add an epsilon to the denominator")
    assert "if it only ever holds 0 and 1" in finding.suggestion


def test_an_integer_count_of_a_mask_by_name_gets_the_clamp_unsafe():
    """An integer cast holds whole numbers, but a parameter named `mask` is not proven to
    hold no negatives: the clamp (an epsilon cannot be added to an integer) is unsafe, and
    its help line says when it is exact."""
    source = _source("""
        def masked_mean(loss, mask):
            n = tf.reduce_sum(tf.cast(mask, tf.int32))
            return tf.reduce_sum(loss) / n  # the division
        """)
    finding = _division(source)
    assert finding.fix["safety"] == "unsafe"
    assert "tf.maximum(n, 1)" in finding.fix["edits"][0]["replacement"]
    assert "is exact if the count is never negative" in finding.suggestion


# Integer counts: `count_nonzero` is int64 unless told otherwise, a cast may be to int32.
INTEGER_COUNTS = {
    "count-nonzero": """
        def share(x):
            n = tf.math.count_nonzero(x)
            return 1 / (2 * n)  # the division
        """,
    "count-nonzero-int32": """
        def share(x):
            n = tf.math.count_nonzero(x, dtype=tf.int32)
            return tf.size(x) / n  # the division
        """,
    "integer-mean": """
        def share(x):
            n = tf.reduce_mean(tf.cast(x > 0, tf.int32))
            return 10 / n  # the division
        """,
    "keras3-sum": """
        def share(x):
            n = ops.sum(ops.cast(x > 0, "int32"))
            return 10 / n  # the division
        """,
}


@pytest.mark.parametrize("name", sorted(INTEGER_COUNTS))
def test_an_integer_count_gets_a_clamp_with_the_integer_one_that_runs(name):
    """`maximum(n, 1.0)` fails for an integer count under TF (and `n + 1e-7` too): the
    safe clamp is written with the integer 1, the help shows what the fix writes, and the
    fixed function runs and keeps its finite result."""
    tf = pytest.importorskip("tensorflow")
    source = _source(INTEGER_COUNTS[name])
    finding = _division(source)
    assert finding.fix is not None and finding.fix["safety"] == "safe", finding.fix
    outcome = fix_source(source, "case.py", options_for(), SAFETIES["unsafe"])
    fixed = _fixed_division(outcome.text)[0]
    assert "1e-7" not in fixed and fixed.endswith(", 1) # the division"), fixed
    assert fixed.split("return ", 1)[1].rsplit(" #", 1)[0] in finding.suggestion
    before, after = {}, {}
    exec(source, before)
    exec(outcome.text, after)
    x = tf.constant([[1.0, 2.0], [5.0, 3.0]])  # no zero: the original is finite
    assert float(after["share"](x)) == float(before["share"](x))
    assert bool(tf.math.is_finite(tf.cast(after["share"](tf.zeros([2, 2])), tf.float64)))


def test_the_integer_one_clamps_every_dtype_under_tensorflow():
    """The clamp's integer literal takes the dtype of the count, float or integer."""
    tf = pytest.importorskip("tensorflow")
    ops = pytest.importorskip("keras").ops
    for dtype in (tf.float16, tf.bfloat16, tf.float32, tf.float64, tf.int32, tf.int64):
        for maximum in (tf.maximum, ops.maximum):
            clamped = maximum(tf.constant([0, 3], dtype), 1)
            assert clamped.dtype == dtype and [float(v) for v in clamped] == [1.0, 3.0]


@pytest.mark.parametrize("style", ["tf2", "tf1", "keras3"])
def test_a_fraction_is_not_called_a_count_nor_helped_to_the_clamp(style):
    """`fraction = reduce_sum(keep) / size` is computed from the count: the message says
    so, and the help does not offer the clamp, which would make the rescaling a no-op."""
    finding = _division(_source(FRACTION[style]))
    assert "`fraction` is built from the count" in finding.message, finding.message
    assert "maximum" not in finding.suggestion and "clamp" not in finding.suggestion


def test_a_sum_of_a_mask_by_name_is_still_helped_to_the_clamp_on_a_condition():
    finding = _division(_source(SAMPLE_WEIGHT_SUM["tf2"]))
    assert "it is the count `tf.reduce_sum(sample_weight)`" in finding.message
    assert "clamping the count" in finding.suggestion
