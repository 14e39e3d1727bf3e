"""Help lines and fixes as a person would write them: a help line names only what
exists where the finding is; fixes leave no dead code and add one epsilon per hazard; a
count is clamped, as the help says."""

import math
import re

import libcst as cst
import pytest

from conftest import options_for
from nanlint.fixing import SAFETIES, fix_source
from nanlint.engine import lint_source

GAN = """import tensorflow as tf


def D(x):
    h1 = tf.nn.relu(tf.matmul(x, w['h1']) + w['b1'])
    return tf.nn.sigmoid(tf.matmul(h1, w['out']) + w['b2'])


def G(z):
    return tf.nn.tanh(tf.matmul(z, w['g']))


def loss(z):
    return -tf.reduce_mean(tf.log(D(G(z))))


def cross_entropy(x, y):
    return -tf.reduce_sum(y * tf.math.log(D2(x)), axis=-1)


def D2(x):
    return tf.nn.softmax(tf.matmul(x, w['c']), axis=-1)
"""


def _names(text: str) -> set:
    return set(re.findall(r"[A-Za-z_]\w*", text))


def test_help_names_only_what_exists_where_the_finding_is(lint):
    findings = {f.line: f for f in lint(GAN, ["NAN103"])}
    log_sigmoid = findings[14].suggestion
    assert log_sigmoid.startswith("make `D` return the logits "
                                  "`tf.matmul(h1, w['out']) + w['b2']` instead of their sigmoid")
    assert "`tf.math.log_sigmoid(D(G(z)))`" in log_sigmoid
    cross = findings[18].suggestion
    assert cross.startswith("make `D2` return the logits `tf.matmul(x, w['c'])` instead of "
                            "their softmax")
    assert "`tf.nn.softmax_cross_entropy_with_logits(labels=y, logits=D2(x), axis=-1)`" in cross
    # The code to write at the finding uses none of D's local names.
    assert not _names("tf.math.log_sigmoid(D(G(z)))") & {"h1", "w"}


def test_help_in_the_same_function_or_a_closure_still_names_the_logits(lint):
    source = ("import tensorflow as tf\n\n\ndef make(h):\n    p = tf.nn.softmax(h)\n\n"
              "    def inner():\n        return tf.math.log(p)\n    return inner\n")
    [finding] = lint(source, ["NAN103"])
    assert finding.suggestion.startswith("use `tf.nn.log_softmax(h)`")


@pytest.mark.parametrize("imports, prefix", [
    ("import keras.ops as O", "O"), ("from keras import ops as kops", "kops"),
    ("from keras import ops", "ops"), ("import keras", "keras.ops"),
])
def test_help_spells_keras_ops_the_way_the_file_imports_them(lint, imports, prefix):
    source = f"{imports}\n\n\ndef f(z, y):\n    a = {prefix}.log({prefix}.softmax(z))\n" \
             f"    return -{prefix}.sum(y * {prefix}.log({prefix}.softmax(z)))\n"
    log_form, cross_entropy = (f.suggestion for f in lint(source, ["NAN103"]))
    assert log_form.startswith(f"use `{prefix}.log_softmax(z)`")
    assert f"`{prefix}.categorical_crossentropy(y, z, from_logits=True)`" in cross_entropy


COUNT = """import tensorflow as tf


def masked_mean(per_example, labels):
    mask = tf.cast(labels > 0, tf.float32)
    count = tf.reduce_sum(mask)
    return tf.reduce_sum(per_example * mask) / count
"""


def test_a_count_is_clamped_as_the_help_says_and_the_help_names_the_numerator(lint):
    [finding] = lint(COUNT, ["NAN101"])
    assert finding.suggestion.startswith(
        "clamp the count: `tf.reduce_sum(per_example * mask) / tf.maximum(count, 1)`")
    assert "numerator`" not in finding.suggestion and "(numerator" not in finding.suggestion
    assert "`tf.math.divide_no_nan(tf.reduce_sum(per_example * mask), count)`" in (
        finding.suggestion)
    # Exact for a count (0 or >= 1), so safe: plain --fix applies it.
    outcome = fix_source(COUNT, "count.py", options_for(["NAN101"]), SAFETIES["safe"])
    assert outcome.text == COUNT.replace("/ count", "/ tf.maximum(count, 1)")
    assert outcome.findings == []


def test_a_continuous_denominator_help_names_the_numerator(lint):
    source = ("import tensorflow as tf\nh = tf.nn.relu(x)\n"
              "w = tf.reduce_mean(h, axis=0) / tf.reduce_sum(h)\n")
    [finding] = lint(source, ["NAN101"])
    assert finding.suggestion == ("add an epsilon to the denominator: "
                                  "`tf.reduce_mean(h, axis=0) / (tf.reduce_sum(h) + 1e-7)`")


NORM_THEN_DIVIDE = """import tensorflow as tf


def inverse_distance_loss(a, b):
    d = tf.norm(a - b)
    return 1.0 / d


def inline_loss(a, b):
    return 1.0 / tf.norm(a - b)
"""


def test_one_epsilon_per_hazard(lint):
    """The norm's fix (epsilon inside the root) also makes the division safe: the division
    gets no epsilon of its own, and its help says which fix covers it."""
    findings = {(f.line, f.code): f for f in lint(NORM_THEN_DIVIDE, ["NAN101", "NAN202"])}
    assert set(findings) == {(5, "NAN202"), (6, "NAN101"), (10, "NAN101"), (10, "NAN202")}
    assert findings[(5, "NAN202")].fix and findings[(10, "NAN202")].fix
    assert findings[(6, "NAN101")].fix is None and findings[(10, "NAN101")].fix is None
    assert findings[(6, "NAN101")].suggestion.endswith(
        "(the fix of NAN202 at line 5 removes this hazard too)")
    outcome = fix_source(NORM_THEN_DIVIDE, "d.py", options_for(["NAN101", "NAN202"]),
                         SAFETIES["unsafe"])
    assert outcome.text.count("1e-7") == 2  # one per norm, none in the divisions
    assert "1.0 / d\n" in outcome.text
    # Fixed: the two with a fix of their own (the `[*]` count); the divisions went with them.
    assert (outcome.findings, outcome.fixed, outcome.carried) == ([], 2, 2)


def test_a_fix_that_needs_no_other_keeps_it(lint):
    """Only the norm's hazard is shared: with NAN202 off, the division keeps its fix."""
    [finding] = lint(NORM_THEN_DIVIDE.split("\n\n\ndef inline_loss")[0], ["NAN101"])
    assert finding.fix is not None


UNUSED_AFTER_FIX = """import tensorflow as tf


def removed(labels, logits):
    probs = tf.nn.softmax(logits)
    return -tf.reduce_sum(labels * tf.math.log(probs), axis=-1)


def read_elsewhere(labels, logits):
    probs = tf.nn.softmax(logits)
    tf.print(probs)
    return -tf.reduce_sum(labels * tf.math.log(probs), axis=-1)


def other_block(labels, logits, flag):
    probs = tf.nn.softmax(logits)
    if flag:
        return -tf.reduce_sum(labels * tf.math.log(probs), axis=-1)
    return None


def commented(logits):
    probs = tf.nn.softmax(logits)  # probabilities
    return tf.math.log(probs)


def read_in_a_nested_function(logits):
    probs = tf.nn.softmax(logits)

    def show():
        return probs
    return tf.math.log(probs), show


probs = tf.nn.softmax(z)
top = tf.math.log(probs)
"""


def test_a_fix_removes_the_softmax_it_leaves_unused():
    """Only in a function, in the same block, alone on its line, read nowhere else."""
    outcome = fix_source(UNUSED_AFTER_FIX, "u.py", options_for(["NAN103"]), SAFETIES["safe"])
    assert outcome.fixed == 6 and outcome.findings == []
    expected = UNUSED_AFTER_FIX.replace(
        "    probs = tf.nn.softmax(logits)\n    return -tf", "    return -tf", 1).replace(
        "tf.math.log(probs)", "tf.nn.log_softmax(logits)")
    expected = expected.replace("top = tf.nn.log_softmax(logits)", "top = tf.nn.log_softmax(z)")
    assert outcome.text == expected
    assert outcome.text.count("probs = tf.nn.softmax") == 5  # the five that must stay


REBOUND_AFTER_FIX = """import tensorflow as tf


def rebound_later(labels, logits):
    probs = tf.nn.softmax(logits)
    loss = -tf.reduce_sum(labels * tf.math.log(probs), axis=-1)
    probs = tf.zeros_like(loss)
    return loss, probs


def read_in_the_next_round(labels, logits, steps):
    probs = tf.nn.softmax(logits)
    for _ in range(steps):
        loss = -tf.reduce_sum(labels * tf.math.log(probs), axis=-1)
        probs = tf.nn.softmax(loss)
    return loss


def two_arms(labels, logits, other, flag):
    if flag:
        probs = tf.nn.softmax(other)
    else:
        probs = tf.nn.softmax(logits)
    return -tf.reduce_sum(labels * tf.math.log(probs), axis=-1)
"""


def test_the_log_softmax_fix_follows_definitions_and_uses():
    """What counts is which assignments reach the log, and which reads the assignment
    reaches, not the name's spelling. A later, other value of `probs` does not keep the
    first one alive; a loop's next round and an `if`'s other arm give `probs` another value,
    so the log is not rewritten to one softmax's logits there (it is still reported)."""
    outcome = fix_source(REBOUND_AFTER_FIX, "r.py", options_for(["NAN103"]), SAFETIES["safe"])
    first, loop, arms = re.split(r"\n\n\ndef ", outcome.text)[1:]
    assert "probs = tf.nn.softmax(logits)" not in first
    assert "tf.nn.log_softmax(logits)" in first and "probs = tf.zeros_like(loss)" in first
    assert "log_softmax" not in loop and "log_softmax" not in arms
    assert outcome.fixed == 1 and [f.line for f in outcome.findings] == [13, 23]


def test_the_superseded_table_matches_the_rules():
    from nanlint import registry

    table = {}
    for code in registry.BUILTIN:
        for superseded in registry.rule_class(code).supersedes:
            table.setdefault(superseded, []).append(code)
    assert {k: tuple(sorted(v)) for k, v in table.items()} == registry.SUPERSEDED_BY


FROM_IMPORTS = """from tensorflow import cast, reduce_sum, float32
from tensorflow.math import log
from tensorflow.nn import softmax


def masked(loss, labels):
    pos = cast(labels > 0, float32)
    return reduce_sum(loss * pos) / reduce_sum(pos)


def ce(labels, logits):
    return -reduce_sum(labels * log(softmax(logits)), axis=-1)
"""


@pytest.mark.parametrize("imports, fixed", [
    ("", False),  # no `tf` in the file: a fix naming one would raise NameError
    # a star import may bring `tf`, but nothing in the file shows it does
    ("from model_utils import *\n", False),
    ("import tensorflow as tf\n", True),
])
def test_a_fix_names_only_a_module_the_file_binds(imports, fixed):
    source = imports + FROM_IMPORTS
    outcome = fix_source(source, "f.py", options_for(["NAN101", "NAN103"]),
                         SAFETIES["unsafe"])
    assert sorted(f.code for f in outcome.findings if fixed or f.suggestion) == (
        [] if fixed else ["NAN101", "NAN103"])  # unfixed, each still has its help
    assert (outcome.text != source) is fixed and outcome.fixed == (2 if fixed else 0)
    if fixed:
        assert "tf.maximum(reduce_sum(pos), 1)" in outcome.text
        assert "tf.nn.log_softmax(logits)" in outcome.text
    else:
        assert not any(f.fix for f in outcome.findings)


HANDWRITTEN_SOFTMAX = """import tensorflow as tf


def normalize(z):
    return tf.exp(z) / tf.reduce_sum(tf.exp(z), axis={axis}, keepdims=True)
"""


@pytest.mark.parametrize("axis, fixed", [
    ("1", "tf.nn.softmax(z, axis=1)"),
    ("-1", "tf.nn.softmax(z, axis=-1)"),
    ("None", None),  # a sum over every axis; the softmax's default is the last one
    ("[1, 2]", None),  # tf.nn.softmax takes one axis: a list raises TypeError
    ("(1,)", None),
])
def test_a_handwritten_softmax_is_rewritten_only_over_one_axis(axis, fixed):
    source = HANDWRITTEN_SOFTMAX.format(axis=axis)
    outcome = fix_source(source, "s.py", options_for(["NAN104"]), SAFETIES["unsafe"])
    [finding] = outcome.findings if fixed is None else [None]
    if fixed is not None:
        assert outcome.fixed == 1 and f"return {fixed}\n" in outcome.text
        return
    assert outcome.text == source and finding.fix is None
    over = "" if axis == "None" else f"axis={axis}, "
    assert f"`z - tf.reduce_max(z, {over}keepdims=True)`" in finding.suggestion
    assert "softmax(z" not in finding.suggestion


def test_a_cross_entropy_help_leads_with_what_the_fix_writes(lint):
    """The fix keeps the labels' sum and writes `log_softmax`: the help says so first, then
    names the fused loss as the other way."""
    source = ("import tensorflow as tf\n\n\ndef loss(labels, logits):\n"
              "    p = tf.nn.softmax(logits)\n"
              "    return -tf.reduce_sum(labels * tf.math.log(p), axis=-1)\n")
    [finding] = lint(source, ["NAN103"])
    assert finding.suggestion.startswith("use `tf.nn.log_softmax(logits)` in place of the log")
    assert "softmax_cross_entropy_with_logits" in finding.suggestion
    fixed = fix_source(source, "c.py", options_for(["NAN103"]), SAFETIES["safe"]).text
    assert "labels * tf.nn.log_softmax(logits)" in fixed


def test_a_softmax_passed_to_a_helper_is_helped_at_the_call(lint):
    """`model` passes its softmax to `helper`, which takes the log: the logits are to be
    passed instead; `model` returns no softmax to change."""
    source = ("import tensorflow as tf\n\n\ndef helper(v):\n    return tf.math.log(v)\n\n\n"
              "def model(logits):\n    p = tf.nn.softmax(logits)\n    return helper(p)\n")
    [finding] = lint(source, ["NAN103"])
    assert finding.suggestion.startswith(
        "pass the logits `logits` from `model` to `helper` instead of their softmax"), (
        finding.suggestion)


def test_a_log_of_a_value_that_can_be_negative_is_helped_to_a_guard(lint):
    """A clip changes only the values whose log was NaN; `softplus` of the argument (the
    old help) changed every value, the model's math."""
    source = ("import tensorflow as tf\n\n\ndef loss(x):\n    d1 = tf.tanh(x)\n"
              "    return tf.reduce_mean(tf.math.log(d1 + 1e-7))\n")
    [finding] = lint(source, ["NAN102"])
    assert "`tf.math.log(tf.maximum(d1 + 1e-7, 1e-7))`" in finding.suggestion
    assert "softplus" not in finding.suggestion and finding.fix is None


@pytest.mark.parametrize("between", [
    "    del logits\n    logits = labels\n",
    "    for logits in [labels]:\n        pass\n",
    "    match labels:\n        case {'smooth': logits}:\n            pass\n",
    "    logits[0] = 1.0\n",
])
def test_log_softmax_fix_only_where_the_logits_are_unchanged(between):
    # The fix moves `logits` from the softmax to the log: anything that may change the
    # name in between (a second binding, del, a match capture, a change in place) refuses
    # it; the same function without it gets the fix.
    template = ("import tensorflow as tf\n\n\ndef loss(logits, labels):\n"
                "    probs = tf.nn.softmax(logits)\n{between}"
                "    return -tf.reduce_sum(labels * tf.math.log(probs), axis=-1)\n")
    changed = [f for f in lint_source(template.format(between=between), "m.py", options_for())
               if f.code == "NAN103"]
    plain = [f for f in lint_source(template.format(between=""), "m.py", options_for())
             if f.code == "NAN103"]
    assert changed and plain
    assert plain[0].fix is not None and changed[0].fix is None


@pytest.mark.parametrize("root", ["tf.sqrt(tf.exp(*[a]))", "tf.sqrt(tf.exp(a), name='root')"])
def test_root_of_exp_fix_only_for_one_plain_argument(root):
    # `sqrt(exp(v))` → `exp(0.5 * v)` is safe for one plain argument: a starred one would
    # become `*0.5 * ...` and a `name=` would be dropped; those get no fix.
    source = ("import tensorflow as tf\n\n\nclass L(tf.keras.layers.Layer):\n"
              f"    def call(self, a):\n        return {root}\n")
    plain = source.replace(root, "tf.sqrt(tf.exp(a))")
    found = [f for f in lint_source(source, "m.py", options_for()) if f.code == "NAN201"]
    fixed = [f for f in lint_source(plain, "m.py", options_for()) if f.code == "NAN201"]
    assert found and fixed and fixed[0].fix is not None and found[0].fix is None


@pytest.mark.parametrize("axis, wanted, unwanted", [
    ("(1,)", "softmax_cross_entropy_with_logits(labels=labels, logits=logits, axis=1)",
     "axis=(1,)"),
    ("(1, 2)", "reduce_logsumexp(logits, axis=(1, 2), keepdims=True)",
     "softmax_cross_entropy_with_logits"),
])
def test_cross_entropy_help_takes_the_axes_the_fused_op_takes(axis, wanted, unwanted):
    # softmax_cross_entropy_with_logits takes one integer axis: a one-element tuple is that
    # integer, and several axes get the log-space form instead (no fused op takes them).
    source = ("import tensorflow as tf\n\n\ndef loss(logits, labels):\n"
              f"    p = tf.nn.softmax(logits, axis={axis})\n"
              "    return -tf.reduce_sum(labels * tf.math.log(p), axis=1)\n")
    found = [f for f in lint_source(source, "m.py", options_for()) if f.code == "NAN103"]
    assert found and wanted in found[0].suggestion and unwanted not in found[0].suggestion


def test_cross_entropy_help_names_logits_computed_in_another_statement():
    # Writing the logits again where the log is would compute them again: a dropout or a
    # random draw gives another value. The help names them instead.
    source = ("import tensorflow as tf\n\n\ndef loss(x, labels, dense):\n"
              "    p = tf.nn.softmax(dense(tf.nn.dropout(x, 0.5)))\n"
              "    tf.print(p)\n"
              "    return -tf.reduce_sum(labels * tf.math.log(p), axis=-1)\n")
    found = [f for f in lint_source(source, "m.py", options_for()) if f.code == "NAN103"]
    assert found and "`logits = dense(tf.nn.dropout(x, 0.5))`" in found[0].suggestion
    assert "logits=dense(" not in found[0].suggestion


def test_a_log_of_a_constant_plus_an_exp_is_helped_to_the_same_value(lint):
    """`log(c + exp(z))` is `log(c) + softplus(z - log(c))`; only `c = 1` is a softplus,
    and only that form gets the fix."""
    findings = lint("import tensorflow as tf\n\n\ndef f(y):\n"
                    "    a = tf.math.log(2.0 + tf.exp(y))\n"
                    "    b = tf.math.log(tf.exp(y) + 1.0)\n"
                    "    return a + b\n")
    shifted, plain = sorted((f for f in findings if f.code == "NAN104"), key=lambda f: f.line)
    assert shifted.message.startswith("hand-written shifted softplus")
    assert "0.693147 + tf.math.softplus(y - 0.693147)" in shifted.suggestion
    assert shifted.fix is None
    z = 30.0
    assert abs(math.log(2.0 + math.exp(z)) - (0.693147 + math.log1p(math.exp(z - 0.693147)))
               ) < 1e-5
    assert plain.message.startswith("hand-written softplus")
    assert "use `tf.math.softplus(y)`" in plain.suggestion and plain.fix is not None


def test_a_root_of_a_value_below_zero_is_a_nan_value_made_non_negative_not_an_epsilon(lint):
    # `1 - exp(relu(x))` is 0 at x <= 0 and below 0 above: an epsilon does not help, and the
    # root is NaN in the value itself, so no gradient needs to be shown to flow.
    source = ("import tensorflow as tf\n\n\ndef shrink(x):\n"
              "    return tf.sqrt(1.0 - tf.exp(tf.nn.relu(x)))\n")
    [finding] = [f for f in lint(source, ["NAN201"]) if f.code == "NAN201"]
    assert "which can be 0 (an infinite gradient) and negative (NaN)" in finding.message
    assert finding.fix is None
    assert "make the argument non-negative before the root" in finding.suggestion


def test_a_vanishing_default_epsilon_names_where_the_default_is_written(lint):
    source = ("import tensorflow as tf\n\n\ndef aux_loss(logits, eps=1e-10):\n"
              "    p = tf.clip_by_value(tf.nn.softmax(logits), eps, 1 - eps)\n"
              "    return -tf.math.log(1.0 - p)\n")
    [finding] = [f for f in lint(source, ["NAN105"]) if f.code == "NAN105"]
    assert finding.line == 5
    assert finding.message.endswith(
        "the epsilon 1e-10 guards nothing; `eps` is 1e-10 by default (line 4), wherever a "
        "caller leaves it out")
    assert (finding.evidence["line"], finding.evidence["column"]) == (4, 26)  # the 1e-10
    assert finding.fix is None  # the default is changed where it is written, by its author
