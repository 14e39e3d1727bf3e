"""Property tests: for any valid program, grammar-generated (hypothesmith) or built from
TensorFlow-flavoured fragments, `lint_source` never raises and every finding is well formed.

Bounded and derandomized for CI; `python scripts/fuzz.py --examples N` runs longer, random.
"""

import hypothesmith
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import options_for
from nanlint import registry
from nanlint.engine import lint_source
from nanlint.source import source_lines
from nanlint.finding import CONFIDENCES, SEVERITIES

CODES = frozenset(registry.all_codes())
NAMES = st.sampled_from(["p", "q", "x", "logits", "labels", "probs", "count"])
LEAVES = st.one_of(NAMES, st.sampled_from(["0", "1.0", "1e-7", "-1", "0.5"]))
OPS = ["tf.math.log", "tf.log", "tf.sqrt", "tf.nn.relu", "tf.nn.softmax", "tf.sigmoid",
       "tf.exp", "tf.reduce_sum", "tf.reduce_mean", "tf.norm", "tf.square", "K.epsilon",
       "tf.math.divide_no_nan", "tf.maximum", "tf.cast", "tf.where", "tf.abs"]


def _expression(children):
    return st.one_of(
        st.builds(lambda op, a: f"{op}({a})", st.sampled_from(OPS), children),
        st.builds(lambda a, op, b: f"({a} {op} {b})", children,
                  st.sampled_from(["/", "*", "+", "-", "**", "//", "%"]), children),
        st.builds(lambda a, b: f"tf.where({a} > 0, {a}, {b})", children, children),
        st.builds(lambda a: f"-{a}", children))


EXPRESSIONS = st.recursive(LEAVES, _expression, max_leaves=12)
PRODUCERS = st.sampled_from(["tf.nn.relu", "tf.nn.softmax", "tf.sigmoid", "tf.square"])
CONSUMERS = st.sampled_from(["tf.math.log({})", "tf.sqrt({})", "x / {}",
                             "x / tf.reduce_sum({})", "tf.norm({} - x)", "tf.math.log(1.0 - {})"])
STATEMENTS = st.one_of(
    st.builds(lambda n, producer, e, consumer: f"{n} = {producer}({e})\n    "
              f"out = {consumer.format(n)}", NAMES, PRODUCERS, EXPRESSIONS, CONSUMERS),
    st.builds(lambda n, e: f"{n} = {e}", NAMES, EXPRESSIONS),
    st.builds(lambda e: f"return {e}", EXPRESSIONS),
    st.builds(lambda n, e: f"{n} += {e}", NAMES, EXPRESSIONS),
    st.builds(lambda e: f"if {e}:\n        pass", EXPRESSIONS),
    st.builds(lambda e: f"x = [{e} for p in q]", EXPRESSIONS))
HEADERS = st.sampled_from(["import tensorflow as tf\n", "import tensorflow.compat.v1 as tf\n",
                           "import tensorflow as tf\nfrom tensorflow.keras import backend as K\n",
                           "from keras import ops as tf\n"])


@st.composite
def tensorflow_programs(draw):
    header = draw(HEADERS)
    body = draw(st.lists(STATEMENTS, min_size=1, max_size=8))
    top = draw(st.lists(st.builds(lambda n, e: f"{n} = {e}", NAMES, EXPRESSIONS), max_size=3))
    name = draw(st.sampled_from(["loss", "my_loss", "f", "cross_entropy"]))
    function = f"def {name}(y_true, y_pred, probs):\n" + "".join(f"    {s}\n" for s in body)
    return header + "".join(s + "\n" for s in top) + function


def assert_lints_cleanly(source):
    options = options_for()
    options.check_all_files = True
    lines = source_lines(source)
    for finding in lint_source(source, "fuzz.py", options):
        assert finding.code in CODES and finding.severity in SEVERITIES
        assert finding.confidence in CONFIDENCES
        assert "\n" not in finding.message and finding.message
        assert 1 <= finding.line <= finding.end_line <= max(len(lines), 1)
        if lines:
            assert 1 <= finding.column <= len(lines[finding.line - 1]) + 1
        if finding.end_line == finding.line:
            assert finding.column <= finding.end_column
        assert finding.name != "internal-error", finding.message


STRATEGIES = {"grammar": hypothesmith.from_grammar(), "tensorflow": tensorflow_programs()}
CI = settings(max_examples=150, deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                     HealthCheck.filter_too_much])


@CI
@given(STRATEGIES["grammar"])
def test_grammar_generated_programs(source):
    assert_lints_cleanly(source)


@CI
@given(STRATEGIES["tensorflow"])
def test_tensorflow_flavoured_programs(source):
    assert_lints_cleanly(source)


def test_the_tensorflow_strategy_reaches_the_rules():
    # Otherwise the property above would be checking files the rules never look at (80
    # examples: many generated softmaxes take a constant, bounded input, and no log of them
    # is a finding).
    found = set()

    @settings(max_examples=80, deadline=None, derandomize=True, database=None)
    @given(STRATEGIES["tensorflow"])
    def collect(source):
        found.update(f.code for f in lint_source(source, "f.py", options_for()))

    collect()
    assert "NAN102" in found and len(found - {"NAN000", "NAN001"}) >= 3, found
