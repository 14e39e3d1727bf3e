"""Numeric hazards that the annotated fixtures cannot express: the span of one
binary cross-entropy, what each new piece of evidence says, the epsilon a fix inserts under a
root of gradients, and the configuration keys `mask-parameters`, `delta-parameters` and
`fix-epsilon-gradient`."""

import json

import libcst as cst
import pytest

from cli_helpers import assert_one_line_error, codes_at, make, nanlint
from conftest import FIXTURES, options_for
from nanlint.engine import lint_source
from nanlint.fixing import SAFETIES, fix_source
from nanlint.analysis import Analysis

__all__ = ["nanlint"]  # a fixture, imported to be found by pytest

BCE = ("import tensorflow as tf\n"
       "def bce(y, logits):\n"
       "    p = tf.sigmoid(logits)\n"
       "    return -tf.reduce_mean(y * tf.math.log(p) + (1 - y) * tf.math.log(1 - p))\n")


def test_one_binary_cross_entropy_is_one_finding_spanning_it():
    findings = [f for f in lint_source(BCE, "bce.py", options_for()) if f.line == 4]
    assert [f.code for f in findings] == ["NAN103"]  # no NAN102 on either log
    text = BCE.splitlines()[3]
    start = text.index("y * tf.math.log(p)")
    assert (findings[0].column, findings[0].end_column) == (start + 1, text.rindex(")") + 1)
    assert "binary cross-entropy" in findings[0].message
    assert "sigmoid_cross_entropy_with_logits(labels=y, logits=logits)" in findings[0].suggestion


def test_the_binary_cross_entropy_fix_rewrites_both_logs():
    outcome = fix_source(BCE, "bce.py", options_for(), SAFETIES["safe"])
    assert ("y * tf.math.log_sigmoid(logits) + (1 - y) * tf.math.log_sigmoid(-logits)"
            in outcome.text)


def test_two_different_sigmoids_stay_two_findings():
    source = ("import tensorflow as tf\np = tf.sigmoid(a)\nq = tf.sigmoid(b)\n"
              "l = y * tf.math.log(p) + (1 - y) * tf.math.log(1 - q)\n")
    found = [f.code for f in lint_source(source, "x.py", options_for()) if f.line == 4]
    assert found == ["NAN103", "NAN103"]


def _value(source: str, name: str):
    module = cst.parse_module(source)
    analysis = Analysis(module)
    target = module.body[-1].body[0].targets[0].target
    assert target.value == name
    return analysis.value(module.body[-1].body[0].value)


@pytest.mark.parametrize("call", [
    "tf.gradients(loss, [x])[0]", "tape.gradient(loss, x)", "tape.jacobian(y, x)",
    "opt.compute_gradients(loss)[0][0]", "K.gradients(loss, w)",
])
def test_gradients_can_be_exactly_zero(call):
    source = ("import tensorflow as tf\nfrom tensorflow.keras import backend as K\n"
              f"g = {call}\n")
    value = _value(source, "g")
    assert value.zero is not None and value.zero.producer == "gradient"
    assert "relu is dead" in value.zero.why


def test_numpy_gradient_is_not_a_gradient_of_a_loss():
    value = _value("import numpy as np\ng = np.gradient(f)\n", "g")
    assert value.zero is None


@pytest.mark.parametrize("expression, producer", [
    ("tf.reduce_mean(tf.square(x)) - tf.square(tf.reduce_mean(x))", "variance"),
    ("tf.reduce_sum(x * x) - m * tf.reduce_sum(x)", "variance"),
    ("tf.reduce_sum(a) - tf.reduce_sum(b)", "difference_of_sums"),
])
def test_tiny_differences(expression, producer):
    value = _value(f"import tensorflow as tf\nm = tf.reduce_mean(x)\nv = {expression}\n", "v")
    assert value.zero is not None and value.zero.producer == producer and value.zero.tiny


def test_a_difference_with_a_constant_is_no_evidence():
    assert _value("import tensorflow as tf\nv = tf.reduce_sum(a) - 1.0\n", "v").zero is None


def test_the_mask_count_message_says_it_is_a_convention():
    source = ("import tensorflow as tf\ndef f(x, mask):\n"
              "    return tf.reduce_sum(x * mask) / tf.reduce_sum(mask)\n")
    [finding] = lint_source(source, "m.py", options_for(["NAN101"]))
    assert finding.confidence == "medium" and "a convention" in finding.message
    assert "tf.maximum(tf.reduce_sum(mask), 1)" in finding.suggestion or (
        "divide_no_nan" in finding.suggestion)


def test_an_initializer_that_reaches_zero_is_high_confidence_and_one_away_from_it_no_evidence():
    source = ("import tensorflow as tf\nscale = tf.Variable(tf.random.uniform([], 0.0, 2.0))\n"
              "shift = tf.Variable(tf.random.uniform([], 1.0, 2.0))\n"
              "a = x / scale\nb = x / shift\n")
    found = {f.line: f for f in lint_source(source, "s.py", options_for(["NAN101"]))}
    assert found[4].confidence == "high" and "[0, 2]" in found[4].message
    assert 5 not in found  # starts in [1, 2]: it reaches exactly 0 only by an exact step


def test_the_root_of_gradients_is_fixed_with_the_gradient_epsilon():
    source = ("import tensorflow as tf\ndef gradient_penalty(d, x):\n"
              "    g = tf.gradients(d, [x])[0]\n"
              "    s = tf.sqrt(tf.reduce_sum(tf.square(g), axis=1))\n"
              "    n = tf.norm(g, axis=1)\n    return s + n\n")
    outcome = fix_source(source, "gp.py", options_for(), SAFETIES["unsafe"])
    assert "tf.sqrt(tf.reduce_sum(tf.square(g), axis=1) + 1e-12)" in outcome.text
    assert "n = tf.sqrt(tf.reduce_sum(tf.square(g), axis=1) + 1e-12)" in outcome.text


GRADIENT_PENALTY = ("import tensorflow as tf\ndef gradient_penalty(d, x):\n"
                    "    g = tf.gradients(d, [x])[0]\n"
                    "    return tf.sqrt(tf.reduce_sum(tf.square(g), axis=1))\n")
MASKED = ("import tensorflow as tf\ndef f(x, keep):\n"
          "    return tf.reduce_sum(x) / tf.reduce_sum(keep)\n")


def test_mask_parameters_are_configurable(tmp_path, nanlint):
    make(tmp_path, {"masked.py": MASKED})
    code, out, _ = nanlint("check", "--format", "json", cwd=tmp_path)
    assert code == 0 and json.loads(out)["findings"] == []
    make(tmp_path, {".nanlint.yaml": "mask-parameters: [keep]\n"})
    code, out, _ = nanlint("check", "--format", "json", cwd=tmp_path)
    assert codes_at(json.loads(out)) == [("masked.py", 3, "NAN101")]


def test_fix_epsilon_gradient_is_configurable(tmp_path, nanlint):
    make(tmp_path, {"gp.py": GRADIENT_PENALTY, ".nanlint.yaml": "fix-epsilon-gradient: 1.0e-10\n"})
    code, _, _ = nanlint("check", "--unsafe-fixes", "--fix", cwd=tmp_path)
    assert "+ 1e-10)" in (tmp_path / "gp.py").read_text(encoding="utf-8")
    make(tmp_path, {".nanlint.yaml": "fix-epsilon-gradient: 0\n"})
    code, _, err = nanlint("check", cwd=tmp_path)
    assert code == 2
    assert_one_line_error(err, "fix-epsilon-gradient")


BOX = ("import tensorflow as tf\ndef decode(raw, wa):\n"
       "    return tf.exp(raw[:, 3]) * wa\n")


def test_delta_parameters_are_configurable(tmp_path, nanlint):
    make(tmp_path, {"box.py": BOX})
    code, out, _ = nanlint("check", "--format", "json", cwd=tmp_path)
    assert code == 0 and json.loads(out)["findings"] == []
    make(tmp_path, {".nanlint.yaml": "delta-parameters: [raw]\n"})
    code, out, _ = nanlint("check", "--format", "json", cwd=tmp_path)
    document = json.loads(out)
    assert codes_at(document) == [("box.py", 3, "NAN104")]
    [finding] = document["findings"]
    assert finding["confidence"] == "medium" and "naming convention" in finding["message"]
    assert "`raw` is a parameter of `decode` (line 2)" in finding["message"]


@pytest.mark.parametrize("line, said", [
    ("lse = tf.math.log(tf.reduce_sum(tf.exp(z), axis=1))", "the log is -inf"),
    ("p = tf.exp(z) / tf.reduce_sum(tf.exp(z), axis=1, keepdims=True)", "0 / 0 = NaN"),
])
def test_a_hand_written_logsumexp_or_softmax_names_both_ends_of_exp(line, said):
    source = f"import tensorflow as tf\ndef f(z):\n    {line}\n    return lse_or_p(locals())\n"
    found = [f for f in lint_source(source, "x.py", options_for()) if f.code == "NAN104"]
    assert len(found) == 1 and "above ~88" in found[0].message
    assert "below ~-104 each exp is exactly 0" in found[0].message and said in found[0].message


@pytest.mark.parametrize("exponent", ["tf.nn.relu(tf.matmul(h, w))", "tf.abs(tf.matmul(h, w))"])
def test_an_exponent_of_no_sign_below_0_names_the_overflow_only(exponent):
    """exp of a value at least 0 is at least 1: the terms never all round to 0."""
    source = ("import tensorflow as tf\ndef f(h, w):\n"
              f"    s = {exponent}\n"
              "    return tf.exp(s) / tf.reduce_sum(tf.exp(s), axis=1, keepdims=True)\n")
    found = [f for f in lint_source(source, "x.py", options_for()) if f.code == "NAN104"]
    assert len(found) == 1 and "above ~88" in found[0].message
    assert "exactly 0" not in found[0].message


def test_a_union_of_boxes_names_both_ways_a_box_has_no_size():
    """The zero padding of a box tensor, and a box of corners whose width rounds to 0 next
    to them (tests/test_identities_under_tf.py shows both under TensorFlow)."""
    source = (FIXTURES / "NAN101_iou_union.py").read_text(encoding="utf-8")
    [finding] = [f for f in lint_source(source, "iou.py", options_for(["NAN101"]))
                 if f.line == 18]
    assert "the zero padding of a box tensor" in finding.message
    assert "rounds to 0 next to them in float32" in finding.message
