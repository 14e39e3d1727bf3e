"""The training rules read what a tensor does before judging it (issue 16, points 9 and 10).

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
