"""The training rules read what a tensor does before judging it.

NAN304 needs a kernel and something that turns large logits into inf/NaN: the same wide
initializations are quiet under a fused, stable loss and reported once a hand-written log
of the network's output is added.
"""

from pathlib import Path

from conftest import options_for
from nanlint.engine import lint_source

FUSED = (Path(__file__).parent / "data" / "nan304_fused_loss.py").read_text(encoding="utf-8")


def _lines(source, code):
    return sorted(f.line for f in lint_source(source, "train.py", options_for([code]))
                  if f.code == code)


def test_wide_kernels_under_a_stable_loss_are_quiet():
    assert _lines(FUSED, "NAN304") == []


def test_the_same_kernels_are_reported_once_a_hand_written_log_follows():
    source = FUSED + ("\n\ndef hand_written(x, y):\n"
                      "    p = tf.nn.softmax(tf.matmul(x, weights['out']))\n"
                      "    return -tf.reduce_sum(y * tf.log(p))\n")
    assert _lines(source, "NAN304") == [8, 9, 21]
    message = next(f.message for f in lint_source(source, "t.py", options_for(["NAN304"])))
    assert "stddev x sqrt(fan-in) = 1 x 28" in message
    assert "tf.log(p)" in message


CLIPPED = (Path(__file__).parent / "data" / "nan304_clipped_log.py").read_text(
    encoding="utf-8")


def test_wide_kernels_whose_logs_are_clipped_and_exps_bounded_are_quiet():
    """TF1, TF2 and Keras 3: every log takes probabilities kept above 0, every exp an
    exponent kept below 88, and large logits only saturate the softmax."""
    assert _lines(CLIPPED, "NAN304") == []


def test_an_unclipped_log_in_the_same_file_reports_them():
    source = CLIPPED.replace("tf1.log(tf1.clip_by_value(probs, 1e-9, 1.0))", "tf1.log(probs)")
    assert _lines(source, "NAN304") == [16, 17, 27, 40]  # each weight, the Keras one
    # by its initializer (line 40)


FLOAT16 = """import keras
import numpy as np

keras.mixed_precision.set_global_policy("mixed_float16")
inputs = keras.Input(shape=(16,))
model = keras.Model(inputs, keras.layers.Dense(4)(inputs))
data = np.random.uniform(low=60000, high=70000, size=(1, 16)).astype("float32")
model.predict(data)
model(data)
model.fit(data, data)
"""


def test_float16_overflow_names_the_value_the_maximum_and_the_policy():
    findings = [f for f in lint_source(FLOAT16, "m.py", options_for(["NAN401"]))]
    assert [f.line for f in findings] == [8]  # once per source, at its first use of any kind
    message = findings[0].message
    assert "up to 70,000" in message and "maximum 65,504" in message
    assert "'mixed_float16' dtype policy" in message and "(line 4)" in message
    assert findings[0].evidence["line"] == 4


def test_float16_overflow_is_the_policy_not_the_data_alone():
    float32 = FLOAT16.replace('"mixed_float16"', '"float32"')
    # float32: prediction and the call are no hazard; the raw range still reaches fit
    assert _lines(float32, "NAN401") == [10]
    assert "float16" not in next(f.message for f in lint_source(
        float32, "m.py", options_for(["NAN401"])))
    in_range = FLOAT16.replace("low=60000, high=70000", "low=0, high=255")
    assert _lines(in_range, "NAN401") == [10]
