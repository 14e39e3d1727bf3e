"""Help lines and fixes as a person would write them (issue 18): a help line names only what
exists where the finding is; fixes leave no dead code and add one epsilon per hazard; a
count is clamped, as the help says."""

import re

import libcst as cst

from conftest import options_for
from nanlint.fixing import SAFETIES, fix_source

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
