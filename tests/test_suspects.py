"""`nanlint suspects`: every operation that can produce inf or NaN, ranked within its file."""

import json
import math
import warnings

import numpy as np
import pytest

from cli_helpers import make
from conftest import run_cli
from nanlint.config import Config
from nanlint.engine import lint_source

# One hazard of each standing, line by line (the test asserts their order):
TRAINING = """import numpy as np
import tensorflow as tf


def data(raw):
    return (raw - raw.mean(0)) / raw.std(0)


def entropy_loss(labels, logits, scale):
    probs = tf.nn.softmax(logits)
    ce = -tf.reduce_sum(labels * tf.math.log(probs), axis=-1)
    per = tf.reduce_sum(ce) / scale
    safe = tf.math.log(probs + 1e-6)
    half = tf.reduce_sum(ce) / 2.0
    return per + tf.reduce_mean(safe) + half


def accuracy(labels, logits):
    hits = tf.cast(tf.equal(labels, tf.argmax(logits, -1)), tf.float32)
    total = tf.reduce_sum(hits)
    tf.summary.scalar("acc", tf.reduce_sum(hits) / total)


def train(x, y, model):
    optimizer = tf.keras.optimizers.SGD(learning_rate=5.0)
    with tf.GradientTape() as tape:
        loss = entropy_loss(y, model(x), tf.reduce_sum(model(x)))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
"""
LINE = {text: number for number, text in enumerate(TRAINING.splitlines(), 1)}


def line_of(fragment):
    return next(number for text, number in LINE.items() if fragment in text)


def suspects(source, path="train.py"):
    found = lint_source(source, path, Config().for_suspects().options_for(None))
    return sorted((f for f in found if f.score is not None), key=lambda f: -f.score)


def by_line_of(source):
    """The suspects of ``source`` by their line."""
    return {s.line: s for s in suspects(source)}


def test_the_ranking_puts_evidence_first_then_reach_then_guards():
    ranked = [s.line for s in suspects(TRAINING)]
    log_of_softmax = line_of("tf.math.log(probs), axis")
    unknown_scale = line_of("/ scale")
    metric = line_of('tf.summary.scalar')
    guarded = line_of("probs + 1e-6")
    assert ranked[0] == log_of_softmax  # check's NAN103, in a loss that reaches the tape
    assert ranked.index(unknown_scale) < ranked.index(metric)  # reaches the loss: first
    assert ranked.index(metric) < ranked.index(guarded)  # the guarded log comes last
    assert ranked[-1] == guarded
    assert line_of("/ 2.0") not in ranked  # a division by a literal is no hazard
    assert line_of("raw.std(0)") in ranked  # data preparation: a constant column
    assert line_of("SGD(learning_rate=5.0)") in ranked


def test_each_suspect_says_why_it_ranks_where_it_does():
    by_line = by_line_of(TRAINING)
    assert "check's NAN103" in by_line[line_of("tf.math.log(probs), axis")].why
    assert "reaches the loss" in by_line[line_of("/ scale")].why
    assert "in a metric or summary" in by_line[line_of("tf.summary.scalar")].why
    assert by_line[line_of("probs + 1e-6")].why.startswith("guarded")


def test_a_gradient_hazard_check_drops_for_lack_of_reach_is_still_ranked():
    source = ("import tensorflow as tf\n\n\ndef report(a, b):\n"
              "    tf.summary.scalar('d', tf.sqrt(tf.reduce_sum(tf.square(a - b))))\n\n\n"
              "def distance_loss(a, b):\n"
              "    return tf.sqrt(tf.reduce_sum(tf.square(a - b)))\n")
    gate = lint_source(source, "d.py", Config().options_for(None))
    assert [f.line for f in gate] == [9]  # only where a gradient flows
    ranked = suspects(source)
    assert [s.line for s in ranked] == [9, 5]


def test_preview_rules_rank_while_check_keeps_them_off():
    source = ("import tensorflow as tf\n\n\ndef step(model, x, loss_fn, optimizer):\n"
              "    with tf.GradientTape() as tape:\n        loss = loss_fn(model(x))\n"
              "    grads = tape.gradient(loss, model.trainable_variables)\n"
              "    grads = [tf.clip_by_value(g, -1.0, 1.0) for g in grads]\n"
              "    optimizer.apply_gradients(zip(grads, model.trainable_variables))\n")
    assert not [f for f in lint_source(source, "s.py", Config().options_for(None))
                if f.code == "NAN302"]
    assert [s.code for s in suspects(source)] == ["NAN302"]


def test_json_has_the_documented_fields_and_ranks_per_file(tmp_path):
    make(tmp_path, {"train.py": TRAINING,
                    "other.py": "import tensorflow as tf\ny = tf.math.log(x)\nz = a / b\n"})
    result = run_cli("suspects", "--format", "json", "--no-cache", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    rows = json.loads(result.stdout)["suspects"]
    keys = {"path", "cell", "line", "column", "end_line", "end_column", "rank", "score",
            "code", "message", "why", "evidence", "gradient", "origins", "also"}
    assert all(set(row) == keys for row in rows)
    for path in ("train.py", "other.py"):
        ranks = sorted(row["rank"] for row in rows if row["path"] == path)
        assert ranks == list(range(1, len(ranks) + 1))
    scores = [row["score"] for row in rows]
    assert scores == sorted(scores, reverse=True)  # overall, best first
    first = next(row for row in rows if row["path"] == "train.py" and row["rank"] == 1)
    assert first["code"] == "NAN103" and first["line"] == line_of("tf.math.log(probs), axis")


def test_top_keeps_the_best_of_each_file(tmp_path):
    make(tmp_path, {"train.py": TRAINING})
    everything = run_cli("suspects", "--format", "json", "--top", "0", "--no-cache",
                         cwd=tmp_path)
    two = run_cli("suspects", "--format", "json", "--top", "2", "--no-cache", cwd=tmp_path)
    rows = json.loads(everything.stdout)["suspects"]
    assert len(rows) > 2
    assert json.loads(two.stdout)["suspects"] == rows[:2]


def test_text_is_a_table_per_file_with_frames_and_a_summary(tmp_path):
    make(tmp_path, {"train.py": TRAINING})
    result = run_cli("suspects", "--top", "4", "--no-cache", cwd=tmp_path)
    assert result.returncode == 0
    out = result.stdout
    assert out.startswith("train.py\n")
    assert f"   1. train.py:{line_of('tf.math.log(probs), axis')}:" in out
    assert "      why: check's NAN103" in out
    assert out.count("   ^") >= 3  # code frames of the best entries
    assert "4 suspects shown in 1 of 1 file" in out


def test_a_file_that_cannot_be_parsed_is_one_line_and_the_others_are_ranked(tmp_path):
    make(tmp_path, {"old.py": "import tensorflow as tf\nprint 'loss', tf.log(p) +\n",
                    "train.py": TRAINING})
    result = run_cli("suspects", "--format", "json", "--no-cache", cwd=tmp_path)
    assert result.returncode == 0
    assert "old.py:2" in result.stderr and "NAN000" in result.stderr
    assert "Traceback" not in result.stderr
    assert {row["path"] for row in json.loads(result.stdout)["suspects"]} == {"train.py"}


def test_names_swapped_under_a_test_leave_the_file_ranked():
    # `a, b = b, a` in a branch: what each name was assigned leads to the other, and back.
    found = suspects("""import numpy as np


def sample(p, q, T, n=None):
    len_p = p.shape[0]
    len_q = q.shape[0]
    if len_p < len_q:
        len_p, len_q = len_q, len_p
    if n is None:
        if T is not None:
            n = np.log(len_p)
    return n
""")
    assert [(f.code, f.line) for f in found] == [("NAN102", 11)]


def test_a_python2_file_is_ranked_as_python3_writes_its_forms(tmp_path):
    make(tmp_path, {"old.py": "import tensorflow as tf\n\n\ndef loss(p):\n"
                              "    print 'loss', p\n    return -tf.log(p)\n"})
    result = run_cli("suspects", "--format", "json", "--no-cache", cwd=tmp_path)
    assert result.returncode == 0
    assert "old.py:5" in result.stderr and "print statements (Python 2) as Python 3 writes them" in (
        result.stderr)
    [row] = json.loads(result.stdout)["suspects"]
    assert (row["path"], row["line"], row["column"], row["code"]) == ("old.py", 6, 13, "NAN102")


def test_a_bad_configuration_is_exit_2(tmp_path):
    make(tmp_path, {"train.py": TRAINING, ".nanlint.yaml": "select: 3\n"})
    result = run_cli("suspects", cwd=tmp_path)
    assert result.returncode == 2 and "nanlint: error:" in result.stderr


def _notebook(*sources):
    """An nbformat 4 notebook of code cells with these sources, as its file's text."""
    cells = [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
              "source": source} for source in sources]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def test_a_notebook_names_the_cell_as_check_does(tmp_path):
    notebook = _notebook(
        "import tensorflow as tf\n",
        "def loss(labels, logits):\n    probs = tf.nn.softmax(logits)\n"
        "    return -tf.reduce_sum(labels * tf.math.log(probs))\n")
    make(tmp_path, {"train.ipynb": notebook})
    rows = json.loads(run_cli("suspects", "--format", "json", "--no-cache",
                              cwd=tmp_path).stdout)["suspects"]
    assert (rows[0]["cell"], rows[0]["line"], rows[0]["code"]) == (2, 3, "NAN103")
    text = run_cli("suspects", "--no-cache", cwd=tmp_path).stdout
    assert "1. train.ipynb:cell 2:3:" in text


def test_the_walk_through_in_the_docs_is_what_the_command_prints(tmp_path):
    import re
    from conftest import ROOT

    doc = (ROOT / "docs" / "suspects.md").read_text(encoding="utf-8")
    walk = doc.split("## A walk-through", 1)[1]
    script = re.search(r"```python\n(.*?)```", walk, re.DOTALL).group(1)
    shown = re.search(r"```console\n\$ nanlint suspects train.py\n(.*?)```", walk,
                      re.DOTALL).group(1)
    make(tmp_path, {"train.py": script})
    printed = run_cli("suspects", "train.py", "--no-cache", cwd=tmp_path).stdout
    entries = re.compile(r"^ +\d+\. .*$|^ +why: .*$|^ +from: .*$", re.MULTILINE)
    assert entries.findall(printed) == entries.findall(shown)
    assert len(entries.findall(shown)) == 12


def test_the_form_of_an_operand_is_evidence_whatever_the_names():
    source = ("import numpy as np\nimport tensorflow as tf\n\n\n"
              "def f(a, b, c, d, e):\n"
              "    u = a / d\n"  # unknown origin
              "    v = a / (b - c)\n"  # a difference
              "    w = a / np.sum(e)\n"  # a statistic
              "    z = np.log(np.exp(e) + 1.0)\n"  # a hand-written softplus
              "    return u + v + w + z\n")
    why = {s.line: s.why for s in suspects(source)}
    assert why[6].startswith("operand of unknown origin")
    assert why[7].startswith("a difference")
    assert why[8].startswith("a statistic")
    assert why[9].startswith("NAN104's evidence in numpy code")  # numpy's softplus: ranked
    ranked = [s.line for s in suspects(source)]
    assert ranked.index(6) > max(ranked.index(7), ranked.index(8), ranked.index(9))


@pytest.mark.parametrize("magnitude", ["tf.square(s)", "s ** 2", "tf.abs(s)", "power",
                                       "tf.pow(s, 2.0)"])
def test_a_log_of_a_square_or_an_absolute_value_is_a_log_of_a_signed_value(magnitude):
    source = ("import tensorflow as tf\n\n\n"
              "def f(p, s):\n"
              "    power = s * s\n"
              "    u = tf.math.log(p)\n"  # unknown origin
              f"    v = tf.math.log({magnitude})\n"
              "    w = p / tf.abs(s)\n"  # a division by one: a scale made positive, mostly
              "    return u + v + w\n")
    by_line = by_line_of(source)
    assert by_line[7].why.startswith("a log of a square or an absolute value")
    assert by_line[6].why.startswith("operand of unknown origin")
    assert by_line[8].why.startswith("operand of unknown origin")
    assert by_line[7].score > by_line[6].score
    # 0 exactly where `s` is, which nothing shows: not a value shown to reach 0
    assert by_line[7].evidence is None


def test_an_epsilon_below_a_millionth_is_a_partial_guard_ranked_between():
    source = ("import tensorflow as tf\n\n\n"
              "def loss(p, q, r):\n"
              "    a = tf.math.log(tf.nn.relu(p) + 1e-3)\n"  # guarded
              "    b = tf.math.log(tf.nn.relu(q) + 1e-9)\n"  # finite; a gradient of 1e9 there
              "    c = tf.math.log(r)\n"  # unknown
              "    return a + b + c\n")
    ranked = suspects(source)
    assert [s.line for s in ranked] == [7, 6, 5]
    assert ranked[1].why.startswith("partly guarded: its operand is kept above 0 by 1e-09")
    assert ranked[2].why.startswith("guarded: its operand is kept above 0")


def test_an_lgamma_of_a_hand_written_softplus_is_shown_to_reach_zero():
    source = ("import tensorflow as tf\n\n\n"
              "def beta_entropy(h, w, v):\n"
              "    alpha = tf.math.log(tf.exp(tf.matmul(h, w)) + 1.0)\n"
              "    beta = tf.nn.softplus(tf.matmul(h, v))\n"
              "    a = tf.math.lgamma(alpha)\n"
              "    b = tf.math.lgamma(beta)\n"
              "    return a + b\n")
    by_line = by_line_of(source)
    assert by_line[7].why.startswith("a producer reaches the singular point")
    assert "hand-written softplus" in by_line[7].message
    assert not by_line[8].why.startswith("a producer")
    assert by_line[7].score > by_line[8].score


def test_a_distributions_scale_is_listed_as_what_its_density_divides_by():
    source = ("import tensorflow as tf\nimport tensorflow_probability as tfp\n\n"
              "tfd = tfp.distributions\n\n\n"
              "def nll(y, mu, raw, h):\n"
              "    a = tfd.Normal(mu, tf.nn.softplus(raw)).log_prob(y)\n"
              "    b = tfd.Normal(loc=mu, scale=tf.nn.softplus(raw) + 1e-3).log_prob(y)\n"
              "    c = tfd.MultivariateNormalDiag(loc=mu, scale_diag=tf.nn.relu(h)).log_prob(y)\n"
              "    d = tf.contrib.distributions.Normal(mu=mu, sigma=h).log_prob(y)\n"
              "    e = tfd.Normal(mu, 0.5).log_prob(y) + tfd.Normal(mu).log_prob(y)\n"
              "    return a + b + c + d + e\n")
    ranked = suspects(source)
    by_line = {s.line: s for s in ranked}
    assert {8, 9, 10, 11} <= set(by_line) and 12 not in by_line
    assert all(by_line[n].message.startswith("distribution scale") for n in (8, 9, 10, 11))
    assert by_line[10].why.startswith("a producer reaches the singular point")  # a relu
    assert by_line[9].why.startswith("guarded")
    assert ranked[0].line == 10 and ranked[-1].line == 9


def test_a_mean_of_a_selection_by_a_mask_is_listed():
    """The mean of an empty tensor is NaN (checked under TF in the identities' tests)."""
    source = ("import tensorflow as tf\n\n\n"
              "def box_loss(location, target, pos_mask):\n"
              "    selected = tf.boolean_mask(location - target, pos_mask)\n"
              "    a = tf.reduce_mean(tf.abs(selected))\n"
              "    b = tf.reduce_mean(tf.gather(location, tf.reshape(tf.where(pos_mask), [-1])))\n"
              "    c = tf.reduce_sum(tf.boolean_mask(location, pos_mask))\n"
              "    d = tf.reduce_mean(location)\n"
              "    return a + b + c + d\n")
    by_line = by_line_of(source)
    assert by_line[6].message.startswith("mean of the selection `tf.boolean_mask(")
    assert by_line[6].why.startswith("a selection by a mask: empty where the mask is all false")
    assert by_line[7].message.startswith("mean of the selection `tf.gather(")
    assert 8 not in by_line and 9 not in by_line  # a sum of nothing is 0; a plain mean


def test_a_dict_entry_is_read_as_what_was_assigned_to_it():
    """`x / stats["peak"]` is the division by the peak it holds: an entry of a literal, an
    entry set before, or an entry of a `self` dict that another method sets."""
    source = ("import numpy as np\n\n\n"
              "def literal(x):\n"
              "    stats = {'peak': np.max(np.abs(x)), 'n': 3}\n"
              "    return x / stats['peak']\n\n\n"
              "def set_before(x):\n"
              "    found = {}\n"
              "    found['top'] = np.amax(np.abs(x))\n"
              "    return x / found['top']\n\n\n"
              "class Normalize:\n"
              "    def randomize(self, x):\n"
              "        self.parameters = {}\n"
              "        self.parameters['max_amplitude'] = np.amax(np.abs(x))\n\n"
              "    def apply(self, x):\n"
              "        return x / self.parameters['max_amplitude']\n\n\n"
              "def unknown(x, stats):\n"
              "    return x / stats['peak']\n")
    why = {s.line: s.why for s in suspects(source)}
    for line in (6, 12, 21):
        assert why[line].startswith("a statistic, 0 for an all-zero or constant input")
    assert why[25].startswith("operand of unknown origin")


def test_a_statistic_that_skips_nan_is_listed():
    """`nanmean` of a slice that is all NaN (every value of a window missing) is NaN:
    checked in numpy and TensorFlow's numpy in the identities' tests. A function or a
    method, any library; `nansum` is 0 there, and no hazard."""
    source = ("import numpy as np\n"
              "import tensorflow as tf\n\n\n"
              "def scale(x, mask):\n"
              "    a = np.nanmean(np.where(mask, x, np.nan), axis=0)\n"
              "    b = x.masked_fill(mask < 1, float('nan')).nanmedian(dim=1)\n"
              "    c = tf.experimental.numpy.nanmean(x, axis=1)\n"
              "    d = np.nansum(x, axis=0)\n"
              "    return a + b + c + d\n")
    by_line = by_line_of(source)
    assert sorted(by_line) == [6, 7, 8]
    for line in (6, 7, 8):
        assert by_line[line].code == "NAN101"
        assert by_line[line].why.startswith(
            "a statistic of the entries that are not NaN: NaN where all of a slice are")


def test_the_indices_of_a_mask_may_be_named_first():
    source = ("import tensorflow as tf\n\n\n"
              "def box_loss(location, labels, order):\n"
              "    positive = tf.where(tf.equal(labels, 1))\n"
              "    rows = positive[:, 0]\n"
              "    a = tf.reduce_mean(tf.gather(location, rows))\n"
              "    b = tf.reduce_mean(tf.gather(location, order))\n"
              "    c = tf.reduce_mean(tf.gather(tf.where(labels > 0, location, 0.), order))\n"
              "    return a + b + c\n")
    by_line = by_line_of(source)
    assert by_line[7].message == "mean of the selection `tf.gather(location, rows)`"
    assert by_line[7].why.startswith("a selection by a mask: empty where the mask is all false")
    assert 8 not in by_line and 9 not in by_line  # indices of another kind; a select's values


def test_a_mean_of_a_list_that_can_be_empty_is_listed():
    """A filtered comprehension, and a graph collection nothing may have been added to
    (the mean of an empty list is NaN: checked under TF in the identities' tests)."""
    source = ("import tensorflow as tf\n\n\n"
              "def total_loss(graph, losses, weights):\n"
              "    regularizers = graph.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)\n"
              "    a = tf.reduce_mean([tf.reduce_mean(r) for r in regularizers])\n"
              "    b = tf.reduce_mean([l for l in losses if l is not None])\n"
              "    c = tf.reduce_mean([l * w for l, w in zip(losses, weights)])\n"
              "    d = tf.add_n([l for l in losses if l is not None])\n"
              "    return a + b + c + d\n")
    by_line = by_line_of(source)
    assert by_line[6].why.startswith("a list that can be empty")
    assert by_line[7].why.startswith("a list that can be empty")
    assert 8 not in by_line and 9 not in by_line  # a list of every loss; a sum


def test_an_exp_of_both_x_and_minus_x_is_evidence_whatever_the_sign():
    """A hand-written cosh, sinh or tanh: one of the two exps overflows once |x| passes 88
    (checked under TF in the identities' tests); two unrelated exps are no such pair."""
    source = ("import tensorflow as tf\n\n\n"
              "def sinh(x):\n"
              "    return (tf.exp(x) - tf.exp(-x)) * 0.5\n\n\n"
              "def both(x, z):\n"
              "    return tf.exp(-(x)) + tf.exp(-z)\n")
    by_line = by_line_of(source)
    assert by_line[5].why.startswith("an exp of both x and -x")
    assert by_line[9].why.startswith("operand of unknown origin")
    assert by_line[5].score > by_line[9].score


def test_a_numpy_file_and_python2_indentation_are_read():
    numpy_only = "import numpy as np\n\n\ndef norm(x):\n    return (x - x.mean(0)) / x.std(0)\n"
    assert [s.line for s in suspects(numpy_only)] == [5]
    assert lint_source(numpy_only, "n.py", Config().options_for(None)) == []
    tabs = "import tensorflow as tf\nif True:\n\tx = z\n        y = tf.log(x)\n"
    assert [s.line for s in suspects(tabs)] == [4]
    assert [f.code for f in lint_source(tabs, "t.py", Config().options_for(None))] == [
        "NAN000"]


@pytest.mark.parametrize("imports, read", [
    ("import torch\n", True), ("import jax.numpy as jnp\n", True),
    ("from theano import tensor\n", True), ("import mlx.core as mx\n", True),
    ("import cupy as cp\n", True), ("import mxnet as mx\n", True),
    ("import torchvision_utils_free\n", False), ("import os\n", False)])
def test_a_file_of_another_array_library_is_read_by_the_hunt_alone(imports, read):
    # Its functions are taken at their names; check needs a TF/Keras op and stays silent.
    source = f"{imports}import lib\n\n\ndef loss(a):\n    return lib.log(a)\n"
    assert [s.line for s in suspects(source)] == ([6] if read else [])
    assert lint_source(source, "t.py", Config().options_for(None)) == []


def test_an_array_method_is_the_function_of_the_array():
    # `x.div_(m)` is `x /= m`; `x.sqrt_()` a root of `x` in place; `x.pow(0.5)` a root;
    # text is no divisor, and `self.norm(x)` is a layer of the object, no norm.
    source = ("import torch\n\n\ndef normalize(self, cams, n, log_std):\n"
              "    cams.div_(cams.sum(-1))\n"
              "    scores = cams.true_divide(n)\n"
              "    cams.sqrt_()\n"
              "    std = log_std.exp()\n"
              "    root = n.pow(0.5) + n.pow(2)\n"
              "    inverse = n.reciprocal()\n"
              "    h = self.norm(cams)\n"
              "    return path.div('logs')\n")
    listed = by_line_of(source)
    assert sorted(listed) == [5, 6, 7, 8, 9, 10]
    assert [listed[line].code for line in sorted(listed)] == [
        "NAN101", "NAN101", "NAN201", "NAN104", "NAN201", "NAN101"]
    assert listed[5].why.startswith("a statistic, 0 for an all-zero or constant input")
    assert listed[5].score > listed[6].score
    assert "`n`" in listed[10].message and "`n`" in listed[9].message


def test_a_modules_function_called_as_a_method_takes_its_arguments():
    # `xp`: numpy or another array module, passed in (code written for several backends)
    source = ("import numpy as np\n\n\ndef f(x, y, xp=np):\n"
              "    root = xp.pow(x, 0.5) + xp.pow(x, 2)\n"
              "    return root + xp.divide(x, y)\n")
    listed = suspects(source)
    assert sorted((s.code, s.message) for s in listed) == [
        ("NAN101", "division by `y`"), ("NAN201", "square root of `x`")]


def test_an_axis_given_to_a_reduction_method_is_no_operand():
    # `x.std(axis)` is the deviation of `x` over an axis; `lib.std(x)` a module's function
    source = ("import numpy as np\n\n\ndef spread(x, axis, dim, lib):\n"
              "    s = x.std(axis)\n"
              "    v = x.var(dim)\n"
              "    w = lib.var(x)\n"
              "    return s + v - w\n")
    listed = {s.line: s.message for s in suspects(source)}
    assert listed[5] == "standard deviation of `x`"
    assert listed[6] == "variance of `x`" and listed[7] == "variance of `x`"


@pytest.mark.parametrize("divisor, guarded", [
    ("w.abs().amax(dim=1, keepdim=True)", False), ("np.amax(np.abs(x), axis=1)", False),
    ("np.abs(x).max(1)", False), ("torch.max(w.abs(), 1)[0]", False),
    ("max(s)", False), ("max(s, 1e-3)", True), ("np.maximum(s, 1e-3)", True),
    ("np.fmax(s, 1e-3)", True)])
def test_a_reductions_axis_is_no_bound_and_an_elementwise_maximums_number_is(divisor,
                                                                             guarded):
    """A reduction (with its axis, or the builtin's of one iterable) is a statistic, 0 for
    an all-zero row; an elementwise maximum with a positive number is a guard."""
    source = ("import numpy as np\nimport torch\n\n\ndef scaled(w, x, s):\n"
              f"    return x / {divisor}\n")
    [listed] = suspects(source)
    assert listed.why.startswith("guarded" if guarded else "a statistic"), listed.why


@pytest.mark.parametrize("then, why", [
    ("", "no gradient"),  # a local nothing reads is dead
    ("    record(locals())\n", "reach unknown")])  # read by name, unseen
def test_a_local_nothing_reads_takes_no_gradient_unless_the_namespace_is_read(then, why):
    source = ("import tensorflow as tf\n\n\ndef step(p, y, opt):\n"
              "    r = tf.sqrt(tf.reduce_sum(tf.square(p - y)))\n" + then +
              "    opt.minimize(tf.reduce_sum(p - y))\n")
    [listed] = suspects(source)
    assert why in listed.why, listed.why


@pytest.mark.parametrize("line, listed", [
    ("    w = (2 * l - 1) / (l - m)\n", False),  # Python numbers: it raises, no NaN
    ("    w = math.log(l - m) + math.sqrt(m - l)\n", False),
    ("    w = (2.0 * n + 1) ** 0.5 / (n - 3)\n", False),  # `n: int`
    ("    w = x / (l - m)\n", True),  # an array divided: inf
    ("    w = np.log(l - m)\n", True),  # numpy's log of 0 is -inf
    ("    w = x[l] / y[m]\n", True)])
def test_pythons_arithmetic_of_python_numbers_raises_and_is_not_listed(line, listed):
    source = ("import math\nimport numpy as np\n\n\ndef table(x, y, n: int, lmax):\n"
              "    for l in range(lmax):\n        for m in range(l):\n    " + line.replace(
                  "    w", "        w") + "    return x\n")
    found = [s for s in suspects(source) if s.line == 8]
    assert bool(found) is listed, [s.message for s in found]


def test_python_raises_where_an_array_op_gives_inf_or_nan():
    with pytest.raises(ZeroDivisionError):
        (2 * 3 - 1) / (3 - 3)
    with pytest.raises(ValueError):
        math.log(0)
    with pytest.raises(ValueError):
        math.sqrt(-1.0)


def test_a_test_that_excludes_the_zero_guards_a_division_whatever_the_evidence():
    source = ("import tensorflow as tf\n\n\ndef focal(pos_mask, loss, x):\n"
              "    num_pos = tf.reduce_sum(tf.cast(pos_mask > 0.5, tf.float32))\n"
              "    a = tf.cond(tf.greater(num_pos, 0), lambda: loss / num_pos, lambda: loss)\n"
              "    b = tf.reduce_sum(x) / num_pos\n"
              "    return a + b\n")
    ranked = suspects(source)
    assert [s.line for s in ranked] == [7, 6]
    assert ranked[1].why.startswith("guarded: it runs only where a test excludes a 0")


def test_a_result_nothing_uses_is_not_listed_but_an_in_place_update_is():
    source = ("import tensorflow as tf\nimport utils\n\n\ndef step(sess, model, x, n):\n"
              "    utils.log(sess.run(model.total_loss))\n"  # a project's logger
              "    tf.math.log(x)\n"  # computed and dropped
              "    x.div_(n)\n"  # PyTorch's in place: x changes
              "    torch.div(x, n, out=x)\n"  # written through `out=`
              "    return tf.math.log(x)\n")
    assert sorted(s.line for s in suspects(source)) == [8, 9, 10]


def test_a_method_of_an_expression_is_a_values_whatever_its_axis_is_called():
    # `(x ** 2).mean(self.redux)`: no module is written `(x ** 2)`; the axis has any name
    source = ("import jax.numpy as jn\n\n\ndef bn(self, x):\n"
              "    m = x.mean(self.redux, keepdims=True)\n"
              "    v = (x ** 2).mean(self.redux, keepdims=True) - m ** 2\n"
              "    return x / jn.sqrt(v)\n")
    first = suspects(source)[0]
    assert first.line == 7 and "a hand-computed variance" in first.message


@pytest.mark.parametrize("imports, read", [
    ("from meridian import backend\n", True), ("import geomstats.backend as gs\n", True),
    ("from package import ops, backend\n", True), ("import os\n", False),
    ("from backends import store\n", False)])
def test_a_file_written_against_a_backend_module_is_read(imports, read):
    source = f"{imports}\n\ndef ratio(a, b):\n    return a / (1 - b)\n"
    assert [s.line for s in suspects(source)] == ([5] if read else [])
    assert lint_source(source, "b.py", Config().options_for(None)) == []  # check: no op


def test_a_distribution_made_from_probabilities_takes_their_log():
    source = ("import tensorflow_probability as tfp\nimport tensorflow as tf\n\n\n"
              "def policy(logits):\n    p = tf.nn.softmax(logits)\n"
              "    return tfp.distributions.Categorical(probs=p)\n")
    first = suspects(source)[0]
    assert (first.line, first.code) == (7, "NAN103")  # check's: a softmax's probabilities
    assert first.why.startswith("check's NAN103, high confidence")
    drawn = source.replace("probs=p)", "probs=p).sample()")  # a draw takes no log: the hunt's
    first = suspects(drawn)[0]
    assert (first.line, first.code) == (7, "NAN102")
    assert first.why.startswith("a producer reaches the singular point")


def test_a_learning_rate_is_listed_where_it_is_written_larger_ones_first():
    source = ("import tensorflow as tf\n"
              "tf.app.flags.DEFINE_float('learning_rate', 0.001, 'initial rate')\n"
              "base_lr = 0.5\n"
              "optimizer = tf.keras.optimizers.SGD(base_lr)\n"
              "other = tf.keras.optimizers.Adam(learning_rate=0.01)\n")
    ranked = [(s.line, s.code) for s in suspects(source)]
    assert ranked == [(3, "NAN301"), (5, "NAN301"), (2, "NAN301")]
    assert "a learning rate of 0.5" in suspects(source)[0].why


def test_a_command_line_options_default_learning_rate_is_listed():
    source = ("import argparse\n\nimport torch\n\n"
              "parser = argparse.ArgumentParser()\n"
              "parser.add_argument('--lr', type=float, default=0.02, help='step size')\n"
              "parser.add_argument('-r', '--learning-rate', type=float, default=0.3)\n"
              "parser.add_argument('--momentum', type=float, default=0.9)\n"
              "parser.add_argument('--lr-decay', type=float, default=0.5)\n")
    ranked = [(s.line, s.code) for s in suspects(source)]
    assert ranked == [(7, "NAN301"), (6, "NAN301")]
    assert "a learning rate of 0.02" in suspects(source)[1].why


def test_acos_of_a_value_clipped_to_one_is_evidence_and_a_margin_guards_it():
    source = ("import tensorflow as tf\n\n\ndef angle(a, b):\n"
              "    c = tf.reduce_sum(a * b, -1)\n"
              "    t = tf.acos(tf.clip_by_value(c, -1.0, 1.0))\n"
              "    u = tf.acos(tf.clip_by_value(c, -1.0 + 1e-6, 1.0 - 1e-6))\n"
              "    d = tf.sqrt(tf.reduce_sum(tf.math.squared_difference(a, b) * 2.0, -1))\n"
              "    return t + u + d\n")
    ranked = suspects(source)
    assert [s.line for s in ranked] == [6, 8, 7]
    # NAN205's evidence, the clip; `angle` has no caller that shows a gradient, so check
    # leaves it out, and the suspect says so rather than calling it check's.
    assert ranked[0].code == "NAN205" and ranked[0].why.startswith(
        "NAN205's evidence (check shows a gradient hazard only where a gradient is shown to "
        "flow)")
    assert not lint_source(source, "train.py", Config(preview=True).options_for(None))
    assert "the clip" in ranked[0].message
    assert ranked[1].why.startswith("a root of squares or differences")
    assert ranked[2].why.startswith("guarded: its operand is kept inside (-1, 1)")


def test_an_inverse_trig_op_is_given_what_reaches_its_domain_edge_unless_it_wraps_the_op():
    # What acos, asin, atanh and acosh are given (a cosine, a tanh, 1 + a distance) reaches
    # the edge of their domain: that outranks a division by a parameter. A function that is
    # the op under another name passes its callers' value on: no such evidence there.
    source = ("import tensorflow as tf\n\n\n"
              "def rotation_angle(r, count):\n"
              "    total = tf.reduce_sum(r) / count\n"
              "    return tf.math.acos((tf.linalg.trace(r) - 1.0) / 2.0) + total\n\n\n"
              "def unsquash(action, scale):\n"
              "    u = tf.math.atanh(action)\n"
              "    return u * scale\n\n\n"
              "def arccos(x):\n"
              "    x = tf.convert_to_tensor(x)\n"
              "    return tf.math.acos(x)\n")
    ranked = suspects(source)
    lines = [s.line for s in ranked]
    assert lines.index(6) < lines.index(5) and lines.index(10) < lines.index(5)
    [edge] = [s for s in ranked if s.line == 6]
    assert edge.why.startswith("what it is given (a cosine, a tanh, 1 + a distance) reaches")
    [wrapped] = [s for s in ranked if s.line == 16]
    assert wrapped.why.startswith("operand of unknown origin")
    assert wrapped.score < edge.score


def test_a_select_that_tests_the_divisor_guards_it_and_a_strict_test_partly():
    source = ("import numpy as np\nimport tensorflow as tf\n\n\n"
              "def scaled(x, d):\n"
              "    a = x / d\n"
              "    b = x / tf.where(tf.equal(d, 0.), tf.ones_like(d), d)\n"
              "    c = x / np.where(d != 0., d, np.inf)\n"
              "    e = x / tf.where(d > 0., d, tf.ones_like(d))\n"
              "    return a + b + c + e\n")
    listed = suspects(source)
    ranked = {s.line: s for s in listed if s.code == "NAN101"}
    assert ranked[6].why.startswith("operand of unknown origin")
    assert ranked[7].why.startswith("guarded: its operand is tested against 0")
    # One line, one entry: the guarded division gives way to the fill `np.inf` there.
    assert [s.code for s in listed if s.line == 8] == ["NAN104"]
    assert ranked[9].why.startswith("partly guarded: its operand is kept above 0 by a test")
    assert ranked[6].score > ranked[9].score > ranked[7].score


def test_a_part_of_a_statistic_is_a_statistic():
    # `s[..., None]`, `s[0]`: an element of a maximum is 0 where the input is all zero.
    source = ("import tensorflow as tf\n\n\ndef scaled(w, x):\n"
              "    a = x / tf.reduce_max(w, axis=-1)[..., None]\n"
              "    peak = tf.reduce_sum(w, axis=0)\n"
              "    b = x / peak[0]\n"
              "    return a + b\n")
    ranked = by_line_of(source)
    for line in (5, 7):
        assert ranked[line].why.startswith("a statistic, 0 for an all-zero or constant input")


def test_no_gradient_ranks_a_gradient_hazard_down_more_than_a_forward_one():
    source = ("import numpy as np\nimport tensorflow as tf\n\n\n"
              "def prepare(a, b):\n"
              "    x = np.log(1.0 + np.exp(a))\n"  # numpy: no gradient, but inf all the same
              "    y = tf.sqrt(tf.reduce_sum(tf.square(tf.stop_gradient(b))))\n"  # no gradient
              "    return x, y\n")
    by_line = by_line_of(source)
    assert by_line[6].why.startswith("NAN104's evidence in numpy code")
    assert "metric" not in by_line[6].why  # data preparation is not a metric
    assert by_line[6].score > by_line[7].score


def test_a_method_of_a_value_computes_from_the_value_so_its_gradient_can_flow():
    # `(pred - target).square().sum(-1).sqrt()` is what `sqrt(sum(square(pred - target)))`
    # is: the methods take their array, so a prediction's gradient reaches the root as it
    # does through the functions; of data alone (`np.asarray`) it is no gradient hazard.
    source = ("import numpy as np\nimport tensorflow as tf\n\n\n"
              "def loss_fn(pred, target):\n"
              "    d = (pred - target).square().sum(-1).clamp(0).sqrt()\n"
              "    e = tf.sqrt(tf.reduce_sum(tf.square(pred - target), -1))\n"
              "    return d + e\n\n\n"
              "def spread(rows):\n"
              "    return np.asarray(rows).square().sum(-1).sqrt()\n")
    by_line = by_line_of(source)
    assert "reaches the loss" in by_line[6].why and "reaches the loss" in by_line[7].why
    assert "computed from data alone" in by_line[12].why


def test_a_root_of_a_value_that_may_be_negative_is_a_hazard_of_the_value_too():
    # Below 0 a root is NaN in the value itself: where no gradient flows, a root whose
    # operand may be negative drops as a hazard of the value does; one of a square, which
    # is singular in its gradient only, drops further.
    source = ("import tensorflow as tf\n\n\n"
              "def report(a, b):\n"
              "    spread = tf.sqrt(a - b)\n"
              "    gap = tf.sqrt(tf.square(a - b))\n"
              "    tf.print(spread, gap)\n")
    by_line = by_line_of(source)
    assert "no gradient" in by_line[5].why and "no gradient" in by_line[6].why
    assert by_line[5].score - by_line[6].score == pytest.approx(2.0)


def test_a_conditional_that_tests_first_and_a_positive_maximum_guard_a_division():
    source = ("import numpy as np\nimport tensorflow as tf\n\n\n"
              "def rates(tp, fn, rows, a, b):\n"
              "    tpr = 0 if tp + fn == 0 else tp / (tp + fn)\n"
              "    z = [(v - np.mean(v)) / max(np.std(v), 1e-3) for v in rows]\n"
              "    c = a / max(b, 1e-7)\n"
              "    return tpr, z, a / b, c\n")
    by_line = by_line_of(source)
    assert by_line[6].why.startswith("guarded: the expression tests its operand first")
    assert by_line[7].code == "NAN201"  # the deviation itself, not the guarded division
    assert suspects(source)[-1].line == 6
    assert by_line[9].why.startswith("operand of unknown origin")
    # as `tf.maximum(b, 1e-7)`: above 0 by too little to keep the quotient from overflowing
    assert by_line[8].why.startswith("partly guarded: its operand is kept above 0 by 1e-07")


def test_a_conditional_that_tests_another_value_does_not_guard_a_division():
    source = ("import numpy as np\n\n\ndef f(n, d, step, tp, fn):\n"
              "    a = n / d if step > 0 else 0.0\n"
              "    b = 0 if tp + fn == 0 else tp / (tp + fn)\n    return a + b\n")
    by_line = by_line_of(source)
    assert by_line[5].why.startswith("operand of unknown origin")
    assert by_line[6].why.startswith("guarded: the expression tests its operand first")


def test_an_epsilon_added_to_a_divisor_nothing_bounds_guards_it():
    # What the author took `n` to be (at least 0); a log's operand may still be below 0.
    source = ("import numpy as np\n\n\ndef f(x, n, m, k, d):\n"
              "    a = x / (n + 1e-3)\n    b = x / (m + 1e-9)\n    c = x / k\n"
              "    return a + b + c + np.log(d - x + 1e-3)\n")
    by_line = by_line_of(source)
    assert by_line[5].why.startswith("guarded: an epsilon 0.001 added")
    assert by_line[6].why.startswith("partly guarded: an epsilon 1e-09 added")
    assert by_line[7].why.startswith("operand of unknown origin")
    assert by_line[8].why.startswith("operand of unknown origin")  # a log: not guarded
    assert by_line[8].score > by_line[7].score > by_line[6].score > by_line[5].score


def test_a_branch_at_or_above_a_bound_not_shown_positive_is_a_partial_guard():
    # `else` of `step > warmup`: warmup >= step, which a step of 0 does not keep above 0;
    # past a bound (`n > eps`) or at or above a positive one (`n >= 1`), a divisor is not 0.
    source = ("def warm(step, warmup, base):\n"
              "    if step > warmup:\n        return base\n"
              "    else:\n        return base * step / warmup\n\n\n"
              "def scale(x, n, eps, m):\n"
              "    if n > eps:\n        x = x / n\n"
              "    if m >= 1:\n        x = x / m\n"
              "    if m >= eps:\n        x = x * 2 / m\n"
              "    return x\n")
    by_line = by_line_of("import numpy as np\n" + source)
    partial = "partly guarded: it runs only where a test keeps its operand at or above"
    assert by_line[6].why.startswith(partial)
    assert by_line[15].why.startswith(partial)
    assert by_line[11].why.startswith("guarded: it runs only where a test excludes a 0")
    assert by_line[13].why.startswith("guarded: it runs only where a test excludes a 0")
    assert by_line[6].score > by_line[11].score


# Fill values and float16 casts, one of each standing (the test asserts their order).
FLOAT16 = """import numpy as np
import tensorflow as tf

NEG_INF = float("-inf")
MIN_FLOAT = np.finfo(np.float32).min / 100


def masked_softmax(logits, mask):
    adder = (1.0 - tf.cast(mask, logits.dtype)) * -1e9
    return tf.nn.softmax(logits + adder)


def half_softmax(logits, mask):
    return tf.nn.softmax(tf.where(mask, logits, tf.float16.min))


def pooled(x, mask):
    return tf.reduce_max(tf.where(mask, x, NEG_INF), axis=1) + tf.reduce_min(x + NEG_INF)


def float32_bias(mask):
    return tf.cast(mask, tf.float32) * -1e9


def moments(x, ori_dtype):
    variance = tf.reduce_mean(tf.square(x), -1)
    bounded = tf.cast(tf.sigmoid(x), tf.float16)
    return tf.cast(variance, ori_dtype), bounded


def to_midi(notes):
    return tf.where(tf.equal(notes, -np.inf), 0.0, notes)
"""
FLOAT16_LINE = {text: number for number, text in enumerate(FLOAT16.splitlines(), 1)}


def float16_line(fragment):
    return next(number for text, number in FLOAT16_LINE.items() if fragment in text)


def test_fill_values_rank_by_the_dtype_they_meet_and_what_takes_them():
    ranked = suspects(FLOAT16)
    lines = [s.line for s in ranked]
    by_line = {s.line: s for s in ranked}
    adder = float16_line("* -1e9")
    extreme = float16_line("tf.float16.min")
    variance = float16_line("tf.cast(variance, ori_dtype)")
    infinity = float16_line('NEG_INF = float("-inf")')
    test = float16_line("-np.inf")
    float32 = float16_line("tf.float32) * -1e9")
    # -1e9 times a mask cast to the inputs' dtype, then a softmax: first.
    assert lines[:3] == [adder, extreme, variance]
    assert lines.index(infinity) < lines.index(float16_line("MIN_FLOAT ="))
    assert lines[-2:] == [float32, float16_line("tf.sigmoid(x), tf.float16")]
    assert by_line[adder].code == "NAN104"
    assert by_line[adder].why.startswith(
        "`-1e9` is -inf in float16, the dtype its values are cast to under a float16 policy, "
        "and 0 * -inf is NaN where the mask is 0")
    assert "calls `tf.nn.softmax` (line 10)" in by_line[adder].message
    assert by_line[extreme].why.startswith(
        "`tf.float16.min` is a dtype's extreme: a sum with it overflows to -inf")
    assert by_line[variance].code == "NAN401"
    assert "past 65504 it is inf in float16" in by_line[variance].why
    assert by_line[test].why.startswith("a test for `-np.inf`")
    assert by_line[float32].why.startswith(
        "guarded: `-1e9` is -inf only in float16, and the values it meets have float32's range")
    # A constant used as a fill twice is one suspect, where it is written.
    assert [s.line for s in ranked if "NEG_INF" in s.message or "inf\")" in s.message] == [
        infinity]


def test_without_float16_a_large_fill_is_guarded_and_a_cast_to_a_variable_dtype_is_none():
    source = ("import tensorflow as tf\n\n\n"
              "def attend(scores, mask, dtype):\n"
              "    weights = tf.nn.softmax(scores + (1.0 - mask) * -1e9)\n"
              "    return tf.cast(tf.reduce_sum(weights), dtype)\n")
    ranked = suspects(source)
    assert [s.line for s in ranked] == [5]
    assert ranked[0].why.startswith("guarded: `-1e9` is -inf only in float16, and the file "
                                    "does not use float16")
    policy = source.replace("\n\n\ndef", "\n\ntf.keras.mixed_precision.set_global_policy("
                            "'mixed_float16')\n\n\ndef")
    ranked = suspects(policy)
    assert [s.line for s in ranked] == [7, 8]
    assert "which the file's dtype policy computes in, and 0 * -inf is NaN" in ranked[0].why
    assert ranked[1].code == "NAN401"


def test_a_fill_cast_to_a_dtype_held_in_a_variable_takes_the_callers_dtype():
    # `tf.cast(1e10, w.dtype)` is inf where `w` is float16 (a float16 policy): the cast is
    # of the fill itself, not of what it meets.
    source = ("import tensorflow as tf\n\n\n"
              "def mask_scores(w, b):\n"
              "    return w * b - tf.cast(1e10, w.dtype) * (1 - b)\n")
    [ranked] = suspects(source)
    assert ranked.line == 5 and ranked.code == "NAN104"
    assert ranked.why.startswith("`1e10` is inf in float16, the dtype its values are cast to "
                                 "under a float16 policy")
    float32 = suspects(source.replace("w.dtype", "tf.float32"))
    assert [s.why.split(":")[0] for s in float32] == ["guarded"]


def test_json_names_the_fill_and_the_softmax_it_meets(tmp_path):
    make(tmp_path, {"attention.py": FLOAT16})
    result = run_cli("suspects", "--format", "json", "--top", "1", "--no-cache", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    [row] = json.loads(result.stdout)["suspects"]
    assert (row["code"], row["line"], row["rank"]) == ("NAN104", float16_line("* -1e9"), 1)
    assert row["message"].startswith("fill value `-1e9`")
    assert row["evidence"]["line"] == float16_line("tf.nn.softmax(logits + adder)")
    assert row["why"].startswith("`-1e9` is -inf in float16")


def test_clipping_by_global_norm_ranks_higher_where_the_file_uses_float16():
    source = ("import tensorflow as tf\n\n\ndef clip(grads):\n"
              "    return tf.clip_by_global_norm(grads, 1.0)\n")
    [plain] = suspects(source)
    assert plain.code == "NAN302" and plain.message.startswith(
        "clipping by the global norm of `grads`")
    assert plain.why.startswith(
        "one inf gradient makes the norm inf and every clipped gradient NaN; reach unknown")
    half = source + "\n\nPOLICY = tf.keras.mixed_precision.Policy('mixed_float16')\n"
    [mixed] = suspects(half)
    assert mixed.why.startswith("one inf gradient makes the norm inf and every clipped "
                                "gradient NaN; in float16 the norm is inf past 256")
    assert mixed.score > plain.score


def test_a_fill_times_a_mask_is_zero_times_inf_and_times_ones_is_only_the_fill():
    source = ("import tensorflow as tf\n\n\ndef fills(x, mask):\n"
              "    a = mask * float('-inf')\n"
              "    b = tf.ones_like(x) * float('-inf')\n"
              "    return a, b\n")
    why = {s.line: s.why for s in suspects(source)}
    assert why[5].startswith("`float('-inf')` is -inf, and 0 * -inf is NaN where the mask is 0")
    assert why[6].startswith("`float('-inf')` is -inf: a softmax of a row all -inf is NaN")


def test_a_number_float16_holds_is_no_fill_value():
    source = ("import tensorflow as tf\n\n\ndef bias(mask, rate):\n"
              "    return (1.0 - mask) * -1e4 + tf.cast(mask, tf.float32) * 16000\n")
    assert [s.line for s in suspects(source)] == []
    assert [s.line for s in suspects(source.replace("-1e4", "-1e5"))] == [5]


def test_a_constant_cast_to_a_variable_dtype_is_no_suspect_and_marks_no_other():
    source = ("import tensorflow as tf\n\n\ndef f(x, dtype):\n"
              "    y = tf.math.log(x)\n"
              "    three = 3.0\n"
              "    return y, tf.cast(three * three, dtype)\n")
    assert [(s.line, s.code) for s in suspects(source)] == [(5, "NAN102")]


def test_a_log_of_a_module_nanlint_does_not_know_names_its_argument():
    # `x.std()` is a method of the value; `backend.log(p)` is a function of its argument.
    source = ("import tensorflow as tf\nfrom . import mybackend as B\n\n\n"
              "def loss(y_true, y_pred):\n"
              "    spread = y_pred.std(0)\n    return B.log(y_pred) + spread\n")
    messages = sorted(f.message.split(":")[0] for f in suspects(source))
    assert messages == ["log of `y_pred`", "standard deviation of `y_pred`"], messages


def test_another_librarys_function_is_taken_at_its_name_unless_it_takes_text():
    source = ("import logging\nimport zfit.z.numpy as znp\n"
              "from tensorflow_addons.optimizers import AdamW\n\n\n"
              "def nll(model, data):\n"
              "    logging.log(logging.INFO, 'nll')\n"
              "    opt = AdamW(weight_decay=1e-4, learning_rate=0.5)\n"
              "    return -znp.sum(znp.log(model.pdf(data)))\n\n\n"
              "def log(x):\n    return x\n\n\n"
              "def g(p):\n    return log(p)\n")
    by_line = by_line_of(source)
    assert by_line[9].message.startswith("log of `model.pdf(data)`")
    assert by_line[8].code == "NAN301"
    assert 7 not in by_line and 17 not in by_line  # logging's log, the module's own log


def test_an_attribute_set_once_in_the_class_is_read_for_its_form():
    source = ("import numpy as np\n\n\nclass Standardizer:\n"
              "    def __init__(self):\n        self.std = None\n        self.scale = None\n\n"
              "    def fit(self, x):\n        self.std = np.std(x, axis=0)\n"
              "        self.scale = np.std(x, axis=0)\n        self.scale = load_scale()\n\n"
              "    def apply(self, x):\n        y = x / self.std\n"
              "        return y / self.scale\n")
    by_line = by_line_of(source)
    assert by_line[15].why.startswith("a statistic")  # `x / self.std`
    assert by_line[16].why.startswith("operand of unknown origin")  # assigned twice


def test_an_exp_of_a_value_nothing_bounds_ranks_above_one_of_a_bounded_value():
    source = ("import numpy as np\nimport tensorflow as tf\n\n\n"
              "def attention(q, k):\n"
              "    f = tf.exp(tf.matmul(q, k, transpose_b=True))\n"
              "    g = tf.exp(tf.tanh(q))\n"
              "    amp = np.abs(np.fft.fft(k))\n"
              "    return f, g, np.log(amp)\n")
    by_line = by_line_of(source)
    assert by_line[6].why.startswith("a value nothing bounds")
    assert 7 not in by_line or by_line[7].score < by_line[6].score
    # numpy's abs is the op model's: at least 0, and 0 exactly where the fft is, which
    # nothing in the file shows; a log of it is a log of a magnitude, not of a value shown
    # to have no 0
    assert by_line[9].why.startswith("a log of a square or an absolute value")


def test_a_learning_rate_is_listed_wherever_it_is_written():
    source = ("import tensorflow as tf\n\n"
              "CONFIG = {'learning_rate': 5e-4, 'batch_size': 32}\n\n\n"
              "def train(model, lr=0.1, steps=10):\n"
              "    opt = tf.keras.optimizers.SGD(0.2)\n"
              "    fit(model, lr=0.5, epochs=3)\n")
    rates = {s.line: s.message for s in suspects(source) if s.code == "NAN301"}
    assert rates == {3: "learning rate `5e-4`", 6: "learning rate `0.1`",
                     7: "learning rate `0.2`", 8: "learning rate `0.5`"}


def test_a_layer_with_an_exponential_activation_is_an_exp_of_a_linear_output():
    source = ("import tensorflow as tf\nfrom tensorflow.keras import backend as K\n\n\n"
              "def head(h):\n"
              "    mean = tf.keras.layers.Dense(10, activation=K.exp)(h)\n"
              "    rate = tf.keras.layers.Dense(10, activation='exponential')(h)\n"
              "    soft = tf.keras.layers.Dense(10, activation='softplus')(h)\n"
              "    return mean, rate, soft\n")
    by_line = by_line_of(source)
    assert by_line[6].code == by_line[7].code == "NAN104"
    assert by_line[6].message.startswith("exp of `tf.keras.layers.Dense(10, activation=K.exp)`")
    assert 8 not in by_line


def test_a_masked_prediction_of_a_categorical_cross_entropy_is_divided_by_its_row_sum():
    source = ("import keras\nfrom keras.losses import categorical_crossentropy\n\n\n"
              "def masked(gt, pr):\n    mask = 1 - gt[:, :, 0:1]\n"
              "    return categorical_crossentropy(gt * mask, pr * mask)\n\n\n"
              "def plain(gt, pr):\n    return categorical_crossentropy(gt, pr)\n\n\n"
              "def logits(gt, z):\n"
              "    return keras.losses.categorical_crossentropy(gt, z * 2.0, from_logits=True)\n")
    by_line = by_line_of(source)
    assert by_line[7].message == "division by the row sum of `pr * mask`"
    assert 11 not in by_line and 16 not in by_line


def test_a_hand_computed_variance_is_listed_where_it_is_computed():
    source = ("import tensorflow as tf\n\n\n"
              "def sync_bn(x, offset, scale):\n"
              "    mean = tf.reduce_mean(x, axis=0)\n"
              "    squared = tf.reduce_mean(tf.square(x), axis=0)\n"
              "    variance = squared - tf.square(mean)\n"
              "    other = offset - scale\n"
              "    return tf.nn.batch_normalization(x, mean, variance, other, scale, 1e-3)\n")
    by_line = by_line_of(source)
    assert by_line[7].why.startswith("a hand-computed variance")
    assert 8 not in by_line


@pytest.mark.parametrize("module, spelling", [
    ("numpy as np", "(x ** 2).mean(0) - m ** 2"), ("numpy as np", "np.mean(x ** 2, 0) - m ** 2"),
    ("jax.numpy as jnp", "(x ** 2).mean(0) - m ** 2")])
def test_a_hand_computed_variance_of_arrays_is_listed_too(module, spelling):
    # The cancellation is a fact of floating point (float64 included), not of tensors.
    source = (f"import {module}\n\n\ndef norm(x, total):\n    m = x.mean(0)\n"
              f"    v = {spelling}\n    other = total / 3\n    return (x - m) * v + other\n")
    by_line = by_line_of(source)
    assert by_line[6].why.startswith("a hand-computed variance")


ORIGINS = """import tensorflow as tf

EPS = 1e-12


def pooled(adjacency, pooling, degrees, scale):
    num = tf.linalg.trace(adjacency)
    den = tf.linalg.trace(tf.matmul(pooling, degrees))
    den = tf.reshape(den, [-1])

    def unused():
        scale = 2.0
        return scale

    ratio = -(num / den)
    return ratio + tf.math.log(scale + EPS)
"""


def test_each_suspect_names_where_its_operand_is_set():
    by_line = by_line_of(ORIGINS)
    # the last assignment above, and the one it rebinds from; not the numerator's
    assert [(o["name"], o["line"]) for o in by_line[15].origins] == [("den", 9), ("den", 8)]
    # a parameter has none (not the nested function's), a module constant its line
    assert [(o["name"], o["line"]) for o in by_line[16].origins] == [("EPS", 3)]


SOFT_CLIP = """import tensorflow as tf


def soft_clip(logits):
    beta = tf.sigmoid(logits)
    epsilon = 1e-9
    return epsilon + (1 - 2 * epsilon) * beta
"""


def test_a_parameters_default_is_where_its_value_is_set():
    source = ("import torch\n\n\n"
              "def log(t, eps=1e-20):\n"
              "    return t.clamp(min=eps).log()\n"
              "def scaled(x, scale):\n"
              "    return x / scale\n")
    by_line = by_line_of(source)
    assert [(o["name"], o["line"]) for o in by_line[5].origins] == [("eps", 4)]
    assert by_line[7].origins == ()  # a parameter without a default: its callers'


def test_a_rules_report_names_where_the_names_it_reads_are_set():
    # NAN105 reports the sum that loses the epsilon; the epsilon is set a line above, where
    # its fix goes
    [clip] = [s for s in suspects(SOFT_CLIP) if s.code == "NAN105"]
    assert clip.line == 7
    assert [(o["name"], o["line"]) for o in clip.origins] == [("epsilon", 6)]


PRODUCED_ELSEWHERE = """import tensorflow as tf


def cross_entropy(labels, probs):
    return -tf.reduce_sum(labels * tf.math.log(probs))


def loss(labels, logits):
    probs = tf.nn.softmax(logits)
    return cross_entropy(labels, probs)


def ratio(total, counts):
    picked = tf.gather(counts, [0])
    kept = picked * 2.0
    return total / kept
"""


def test_a_suspect_names_the_line_that_makes_its_evidence():
    by_line = by_line_of(PRODUCED_ELSEWHERE)
    # a parameter has no assignment, but its softmax is made in the caller
    assert [(o["name"], o["line"]) for o in by_line[5].origins] == [("probs", 9)]
    # the assignments show where the operand is set; a producer they show is not repeated
    division = by_line[16]
    assert ("kept", 15) in [(o["name"], o["line"]) for o in division.origins]
    assert len({o["line"] for o in division.origins}) == len(division.origins)


def test_origins_are_in_json_and_text_and_in_a_notebooks_cells(tmp_path):
    make(tmp_path, {"pool.py": ORIGINS})
    rows = json.loads(run_cli("suspects", "--format", "json", "--no-cache",
                              cwd=tmp_path).stdout)["suspects"]
    division = next(row for row in rows if row["line"] == 15)
    assert division["origins"] == [{"name": "den", "line": 9, "end_line": 9},
                                   {"name": "den", "line": 8, "end_line": 8}]
    text = run_cli("suspects", "--no-cache", cwd=tmp_path).stdout
    assert "      from: `den` (lines 9, 8)\n" in text
    notebook = _notebook(
        "import tensorflow as tf\ncount = tf.reduce_sum(mask)\n",
        "x = 1.0\nmean = total / count\n")
    make(tmp_path, {"pool.py": "", "train.ipynb": notebook})
    rows = json.loads(run_cli("suspects", "--format", "json", "--no-cache",
                              cwd=tmp_path).stdout)["suspects"]
    division = next(row for row in rows if row["path"] == "train.ipynb")
    assert (division["cell"], division["line"]) == (2, 2)
    assert division["origins"] == [{"name": "count", "cell": 1, "line": 2, "end_line": 2}]
    text = run_cli("suspects", "--no-cache", cwd=tmp_path).stdout
    assert "      from: `count` (cell 1:2)\n" in text


# numpy's functions are the op model's (a log of 0 is -inf, an exp overflows above ~709 in
# float64): the hunt ranks what they show; check leaves numpy computations out (judged on real
# repositories, such findings were mostly wrong where they were not unlikely).
NUMPY_PREPARATION = """import numpy as np


# -- softmax, softplus, logsumexp written by hand --------------------------------------------
def softmax(z):
    e = np.exp(z)
    return e / np.sum(e, axis=-1, keepdims=True)  # hazard


def stable_softmax(z):
    e = np.exp(z - np.max(z, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def cross_entropy(logits, labels):
    shifted = logits - np.max(logits, axis=-1, keepdims=True)
    probs = np.exp(shifted) / np.sum(np.exp(shifted), axis=-1, keepdims=True)
    return -np.sum(labels * np.log(probs), axis=-1)  # hazard


def clipped_cross_entropy(logits, labels):
    shifted = logits - np.max(logits, axis=-1, keepdims=True)
    probs = np.exp(shifted) / np.sum(np.exp(shifted), axis=-1, keepdims=True)
    return -np.sum(labels * np.log(np.clip(probs, 1e-12, 1.0)), axis=-1)


def log_in_log_space(logits, labels):
    log_probs = logits - np.logaddexp.reduce(logits, axis=-1, keepdims=True)
    return -np.sum(labels * log_probs, axis=-1)


def softplus(z):
    return np.log(1.0 + np.exp(z))  # hazard


def stable_softplus(z):
    return np.logaddexp(0.0, z)


def logsumexp(scores):
    return np.log(np.sum(np.exp(scores), axis=1))  # hazard


def literal_scores():
    return np.log(np.sum(np.exp(np.array([1.0, 2.0, 3.0]))))


# -- the gradient alone: an array has none ---------------------------------------------------
def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


# -- counts and zeros ------------------------------------------------------------------------
def degree_normalization(edges, n):
    degree = np.zeros(n)
    for i, _ in edges:
        degree[i] += 1
    return np.power(degree, -0.5)  # hazard


def clamped_degree_normalization(edges, n):
    degree = np.zeros(n)
    for i, _ in edges:
        degree[i] += 1
    return np.power(np.maximum(degree, 1.0), -0.5)


def positive_fraction(labels):
    positives = np.count_nonzero(labels > 0)
    return np.sum(labels) / positives  # hazard


# -- the spread of data: the hunt's --------------------------------------------------------
def standardize(x):
    return (x - np.mean(x, axis=0)) / np.std(x, axis=0)


def to_unit_range(image):
    image = image - np.amin(image)
    return image / np.amax(image)
"""


def test_numpy_hazards_rank_by_their_evidence_and_check_leaves_them_out():
    lines = NUMPY_PREPARATION.splitlines()
    hazards = {number for number, text in enumerate(lines, 1) if text.endswith("# hazard")}
    ranked = suspects(NUMPY_PREPARATION)
    top = [s.line for s in ranked[:len(hazards)]]
    assert set(top) == hazards and len(hazards) == 6
    assert all("evidence in numpy code" in s.why for s in ranked[:len(hazards)])
    softmax = next(s for s in ranked if s.message.startswith("hand-written softmax"))
    assert "above ~709 in float64" in softmax.message
    assert "np.max(z, axis=-1, keepdims=True)" in softmax.suggestion
    with_tf = "import tensorflow as tf\n" + NUMPY_PREPARATION  # analysed by check too
    assert lint_source(with_tf, "prep.py", Config(preview=True).options_for(None)) == []


def test_an_arrays_methods_shift_clip_and_sum_as_the_ops_do():
    source = ("import numpy as np\n\n\n"
              "def stable(z):\n"
              "    e = np.exp(z - z.max(axis=1, keepdims=True))\n"  # shifted: guarded
              "    return e / e.sum(axis=1, keepdims=True)\n"
              "def bare(z):\n"
              "    e = np.exp(z)\n"
              "    return e / e.sum(axis=1, keepdims=True)\n"  # a hand-written softmax
              "def clipped_log(p, y):\n"
              "    return -np.sum(y * np.log(p.clip(1e-7, 1.0)))\n")  # kept above 0
    by_line = by_line_of(source)
    assert by_line[5].why.startswith("guarded: its operand is bounded above")
    assert by_line[9].message.startswith("hand-written softmax")
    assert by_line[11].why.startswith("partly guarded")
    assert max(by_line, key=lambda line: by_line[line].score) == 9


def test_a_tensors_clamp_is_a_clip_by_its_bounds_keywords_too():
    source = ("import torch\n\n\n"
              "def peak_normalized(x):\n"
              "    return x / x.abs().amax().clamp(min=1.0)\n"  # at least 1: guarded
              "def entropy(p):\n"
              "    return -(p * p.clamp(min=1e-20).log()).sum()\n"  # kept above 0, barely
              "def clipped(p):\n"
              "    return -(p * p.clip(max=1.0).log()).sum()\n")  # no lower bound
    by_line = by_line_of(source)
    assert by_line[5].why.startswith("guarded: its operand is kept above 0")
    assert by_line[7].why.startswith("partly guarded: its operand is kept above 0 by 1e-20")
    assert by_line[9].why.startswith("operand of unknown origin")


@pytest.mark.parametrize("clipped", ["torch.clamp(x, min=0)", "jnp.clip(x, 0.0, 1.0)"])
def test_another_librarys_clip_is_a_clip_and_a_floor_of_zero_reaches_zero(clipped):
    source = ("import jax.numpy as jnp\nimport torch\n\n\n"
              f"def f(x):\n    return jnp.sqrt({clipped})\n")
    [root] = suspects(source)
    assert root.why.startswith("a producer reaches the singular point")
    assert "not positive" in root.message


@pytest.mark.parametrize("length", ["tf.pow(d[..., 0] ** 2 + d[..., 1] ** 2, 0.5)",
                                    "tf.square(dx) + tf.square(dy) + dz ** 2",
                                    "dx * dx + dy * dy"])
def test_a_division_by_a_length_is_by_a_root_of_squares(length):
    # a vector's length is 0 where every component is (two boxes' centres coincide)
    source = ("import tensorflow as tf\n\n\n"
              "def angle(d, dx, dy, dz, s):\n"
              f"    sigma = {length}\n"
              "    u = tf.abs(dx) / sigma\n"
              "    return u + dx / (s ** 2)\n")
    by_line = {f.line: f for f in suspects(source)}
    assert by_line[6].why.startswith("a root of squares or differences")
    assert by_line[7].why.startswith("operand of unknown origin")  # one square: a scale


def test_a_sum_of_differences_is_no_length():
    source = ("import tensorflow as tf\n\n\n"
              "def f(a, b, c, d, x):\n"
              "    return x / (tf.subtract(a, b) + tf.subtract(c, d))\n")
    [quotient] = suspects(source)
    assert not quotient.why.startswith("a root of squares")


def test_the_hunt_builds_no_fix_where_check_offers_one(monkeypatch):
    from nanlint.rules.unstable_softmax_cross_entropy import UnstableSoftmaxCrossEntropy

    built = []
    original = UnstableSoftmaxCrossEntropy._log_fix
    monkeypatch.setattr(UnstableSoftmaxCrossEntropy, "_log_fix",
                        lambda self, *args: built.append(1) or original(self, *args))
    source = ("import tensorflow as tf\n\n\ndef loss(labels, logits):\n"
              "    p = tf.nn.softmax(logits)\n"
              "    return -tf.reduce_sum(labels * tf.math.log(p))\n")
    checked = lint_source(source, "train.py", Config().options_for(None))
    assert [f.code for f in checked if f.fix is not None] == ["NAN103"] and built == [1]
    assert [s.code for s in suspects(source)][:1] == ["NAN103"] and built == [1]


def test_an_array_written_in_place_is_zero_only_where_nothing_is_written():
    source = ("import numpy as np\n\n\n"
              "def degree_normalization(edges, n):\n"
              "    degree = np.zeros(n)\n"
              "    for i, _ in edges:\n"
              "        degree[i] += 1\n"
              "    return np.power(degree, -0.5)\n"  # 0 for a node without an edge
              "def filled(rows, n):\n"
              "    ary = np.zeros(n)\n"
              "    for i, r in enumerate(rows):\n"
              "        ary[i] = r\n"
              "    return ary / np.sum(ary)\n"  # a sum of what is written: not 0 by itself
              "def untouched(n, x):\n"
              "    z = np.zeros(n)\n"
              "    return x / np.sum(z)\n")
    by_line = by_line_of(source)
    assert "stays 0 wherever nothing is written into it" in by_line[8].message
    assert "which is all zeros" in by_line[16].message
    assert by_line[13].why.startswith("a statistic")
    assert by_line[13].score < min(by_line[8].score, by_line[16].score)


def test_an_attributes_array_written_item_by_item_is_zero_only_where_nothing_is_written():
    source = ("import numpy as np\n\n\n"
              "class Helper:\n"
              "    def __init__(self, n):\n"
              "        self.counts = np.zeros(n)\n"
              "        self.other = np.zeros(n)\n"
              "        self.mine = np.zeros(n)\n"
              "        self.mine[0] = 1.0\n\n"
              "    def fill(self, rows):\n"
              "        for i, r in enumerate(rows):\n"
              "            self.counts[i] += r\n\n"
              "    def ratio(self, x):\n"
              "        y = x / np.sum(self.counts)\n"
              "        return y + x / np.sum(self.other)\n\n"
              "    def local(self, x):\n"
              "        self.mine = np.zeros(3)\n"
              "        self.mine[1] = x\n"
              "        return x / np.sum(self.mine)\n")
    by_line = by_line_of(source)
    assert "all zeros" in by_line[17].message  # nothing writes into `self.other`
    assert "zeros" not in by_line[16].message  # `fill` writes into `self.counts`
    assert "zeros" not in by_line[22].message  # this method writes into `self.mine`
    assert by_line[17].score > max(by_line[16].score, by_line[22].score)


@pytest.mark.parametrize("divisor", ["K.cast(K.prod(K.int_shape(w)), 'float32')",
                                     "input_shape[-1]", "K.cast(image_shape[0], 'float32')",
                                     "grid_size", "self.img_size[1]"])
def test_a_value_named_as_a_shape_is_a_size(divisor):
    source = ("from tensorflow.keras import backend as K\n\n\n"
              "def normalized(x, w, input_shape, image_shape, scale):\n"
              f"    a = K.sum(x * w) / {divisor}\n"
              "    return a / scale\n")
    by_line = by_line_of(source)
    assert "its operand is a size" in by_line[5].why
    assert "its operand is a size" not in by_line[6].why


@pytest.mark.parametrize("width, size", [
    ("tf.cast(tf.shape(k)[-1], tf.float32)", True), ("k.get_shape().as_list()[-1]", True),
    ("float(k.shape[-1])", True), ("k.size(-1)", True),
    ("tf.cast(tf.shape(k)[0], tf.float32)", False), ("tf.reduce_sum(k)", False)])
def test_the_width_of_a_last_axis_is_a_size_and_the_length_of_the_first_is_not(width, size):
    """The last axis of a tensor is a feature, channel or head width that the layers fix
    (at least 1: attention's `/ sqrt(d_k)`); the first can count what a selection keeps (the
    objects of an image: 0 for an image with none)."""
    source = ("import math\nimport tensorflow as tf\n\n\n"
              "def attend(q, k):\n"
              f"    dk = {width}\n"
              "    return tf.matmul(q, k, transpose_b=True) / tf.math.sqrt(dk)\n")
    [division] = [s for s in suspects(source) if s.line == 7]
    assert division.code == "NAN101"
    assert ("its operand is a size" in division.why) is size


@pytest.mark.parametrize("size", ["tf.shape(x)[0]", "x.get_shape().as_list()[-1]",
                                  "K.int_shape(x)[1]", "len(x)", "x.size(0)"])
def test_a_root_of_a_size_read_from_a_shape_takes_no_gradient(size):
    """A size read from a shape is an integer, at least 0: no gradient flows through it,
    so its root is no hazard of the gradient, and ranks under a root of an unknown."""
    source = ("import tensorflow as tf\nfrom tensorflow.keras import backend as K\n\n\n"
              "def scaled(x, v):\n"
              f"    n = tf.cast({size}, tf.float32)\n"
              "    a = x * tf.sqrt(n)\n"
              "    return a * tf.sqrt(v)\n")
    by_line = by_line_of(source)
    assert "no gradient (a size read from a shape: an integer)" in by_line[7].why
    assert by_line[7].score < by_line[8].score


@pytest.mark.parametrize("divisor", ["sizes", "num_pos", "resize"])
def test_a_name_is_a_size_only_as_a_words_ending(divisor):
    source = ("from tensorflow.keras import backend as K\n\n\n"
              f"def normalized(x, {divisor}):\n"
              f"    return K.sum(x) / {divisor}\n")
    [suspect] = suspects(source)
    assert "its operand is a size" not in suspect.why


def test_a_keyword_named_as_a_shape_makes_no_size():
    """`output_shape=` names a parameter; the product it shapes is no size."""
    source = ("import mesh_tensorflow as mtf\n\n\n"
              "def attend(q, k, dims):\n"
              "    return 1. / mtf.einsum([q, k], output_shape=dims)\n")
    [suspect] = suspects(source)
    assert suspect.code == "NAN101"
    assert "its operand is a size" not in suspect.why


@pytest.mark.parametrize("divisor, size", [
    ("np.abs(x).max(axis=1).reshape((x.shape[0], -1))", False),
    ("x.sum(1).view(x.size(0), 1)", False), ("tf.reshape(tf.reduce_sum(x), tf.shape(x)[:1])",
                                            False),
    ("tf.reshape(batch_size, [-1])", True)])
def test_the_shape_a_value_is_given_makes_it_no_size(divisor, size):
    source = ("import numpy as np\nimport tensorflow as tf\n\n\n"
              "def normalized(x, batch_size):\n"
              f"    return x / {divisor}\n")
    [suspect] = suspects(source)
    assert ("its operand is a size" in suspect.why) is size


def test_a_difference_of_sizes_is_no_size_and_can_be_zero():
    source = ("import tensorflow as tf\n\n\n"
              "def rates(y_true, y_pred):\n"
              "    a = tf.reduce_sum(y_pred) / tf.cast(tf.shape(y_true)[0], tf.float32)\n"
              "    b = tf.reduce_sum(y_pred) / (\n"
              "        tf.cast(tf.shape(y_true)[0], tf.float32) - tf.reduce_sum(y_true))\n"
              "    return a + b\n")
    by_line = by_line_of(source)
    assert "its operand is a size" in by_line[5].why
    assert "its operand is a size" not in by_line[6].why
    assert by_line[6].score > by_line[5].score


def test_a_test_for_inf_that_python_branches_on_is_an_option_not_a_tensors_value():
    source = ("import numpy as np\nimport tensorflow as tf\n\n\n"
              "def loss(y, p, alpha):\n"
              "    if alpha == np.inf:\n"
              "        return tf.reduce_mean(p)\n"
              "    p = tf.where(tf.equal(p, -np.inf), 0.0, p)\n"
              "    return tf.reduce_mean(p) if alpha != np.inf else 0.0\n")
    lines = [s.line for s in suspects(source) if "a test for" in s.why]
    assert lines == [8]


def test_an_infinity_written_but_not_seen_filling_a_tensor_ranks_under_one_that_is():
    source = ("import math\n\nimport tensorflow as tf\n\n"
              "INFINITY = math.inf\n"
              "NEG_INF = float('-inf')\n\n\n"
              "def masked(x, lower, d):\n"
              "    if lower < -INFINITY:\n"
              "        return x / d\n"
              "    return tf.nn.softmax(x + NEG_INF * (1.0 - tf.cast(x > 0, x.dtype)))\n")
    by_line = by_line_of(source)
    assert by_line[5].why.startswith("`math.inf` is inf, written here; the file does not show "
                                     "it filling a tensor")
    assert by_line[6].score > by_line[11].score > by_line[5].score


def test_an_attribute_set_by_another_method_names_where_the_class_sets_it():
    source = ("import numpy as np\n\n\n"
              "class Scaler:\n"
              "    def __init__(self):\n"
              "        self.std = None\n\n"
              "    def fit(self, x):\n"
              "        self.mean = x.mean(0)\n"
              "        self.std = np.std(x, axis=0)\n\n"
              "    def transform(self, x):\n"
              "        return (x - self.mean) / self.std\n\n"
              "    def rescale(self, x):\n"
              "        self.std = np.abs(x).max()\n"
              "        return x / self.std\n")
    by_line = by_line_of(source)
    assert [(o["name"], o["line"]) for o in by_line[13].origins] == [
        ("self.std", 10), ("self.std", 6), ("self.std", 16)]
    # set in the method itself before the suspect: that assignment only
    assert [(o["name"], o["line"]) for o in by_line[17].origins] == [("self.std", 16)]


def test_a_hazard_in_a_branch_that_a_test_of_its_operand_keeps_from_0_ranks_last():
    source = ("import tensorflow as tf\n\n\n"
              "def f(x, n, d):\n"
              "    if n > 0:\n"
              "        x = x / n\n"
              "    y = tf.cond(d > 0, lambda: x / d, lambda: x)\n"
              "    return y / d\n")
    ranked = suspects(source)
    assert [s.line for s in ranked] == [8, 6, 7]
    assert all(s.why.startswith("guarded: it runs only where a test excludes a 0 operand")
               for s in ranked[1:])


@pytest.mark.parametrize("power", ["x ** 2", "tf.pow(x, 2.0)", "tf.math.pow(x, 2)"])
def test_a_root_of_a_window_summed_over_powers_is_a_distance(power):
    source = ("import tensorflow as tf\n\n\n"
              "def l2_pool(x, window):\n"
              f"    conv = tf.nn.conv2d({power}, window, strides=2, padding='SAME')\n"
              "    return tf.sqrt(conv)\n\n\n"
              "def plain(x):\n"
              "    return tf.sqrt(x)\n")
    by_line = by_line_of(source)
    assert by_line[6].why.startswith("a root of squares or differences")
    assert by_line[6].score > by_line[10].score


@pytest.mark.parametrize("exponent, listed", [
    ("gamma", "power (its exponent may be below 1) of"),  # a parameter: the caller sets it
    ("p", "power (its exponent may be below 1) of"),  # unknown
    ("0.5", "square root of"), ("0.25", "fractional power 0.25 of"),
    ("2.0", None), ("n", None)])  # a known square: no singular point
def test_a_power_whose_exponent_the_caller_sets_can_be_fractional(exponent, listed):
    source = ("import tensorflow as tf\n\nn = 2\n\n\n"
              "def focal(logits, p, gamma=2.0):\n    probs = tf.sigmoid(logits)\n"
              f"    a = (1.0 - probs) ** {exponent}\n"
              f"    b = tf.pow(1.0 - probs, {exponent})\n    return a + b\n")
    found = [(s.line, s.message.partition(" `")[0]) for s in suspects(source)]
    assert found == ([] if listed is None else [(8, listed), (9, listed)])


def test_atan2_is_listed_for_its_gradient_where_both_arguments_are_0():
    # A box's aspect angle: width and height both 0 (an empty box) make its gradient NaN.
    source = ("import tensorflow as tf\n\n\ndef angle(box):\n"
              "    w = box[..., 2] - box[..., 0]\n    h = box[..., 3] - box[..., 1]\n"
              "    return tf.math.atan2(h, w)\n")
    first = suspects(source)[0]
    assert (first.line, first.code) == (7, "NAN201")
    assert "NaN where both arguments are 0" in first.message


def test_an_arccos_past_1_is_a_hazard_of_the_value_where_no_gradient_flows():
    # Numpy data code: no gradient. A law-of-cosines value rounds past 1, where arccos is
    # NaN; clipped to [-1, 1], only the gradient is singular (at its ends), and none flows.
    def first(given):
        return suspects("import numpy as np\n\n\ndef angle(a, b, c):\n"
                        "    cos_a = (b * b + c * c - a * a) / (2 * b * c)\n"
                        f"    return np.arccos({given})\n")[0]
    free, clipped = first("cos_a"), first("np.clip(cos_a, -1.0, 1.0)")
    assert free.line == clipped.line == 6
    assert free.score > clipped.score


def test_a_statistic_a_function_returns_in_a_tuple_is_one_where_it_is_unpacked():
    # `energy` is a sum, 0 for a silent frame, though the caller only sees a name.
    source = ("import numpy as np\n\n\ndef bank(frames):\n"
              "    power = np.square(frames)\n    energy = np.sum(power, 1)\n"
              "    return power, energy\n\n\ndef features(frames, scale):\n"
              "    power, energy = bank(frames)\n    spread = np.log(scale)\n"
              "    return np.log(energy) + spread\n")
    first = suspects(source)[0]
    assert first.line == 13 and first.why.startswith("a statistic")


def test_a_mean_is_read_as_the_sum_it_divides():
    # `var / n` is 0 where `var` is, and `var` is a sum of squares (the name rebound to it).
    source = ("import tensorflow as tf\n\n\ndef norm(x, n, scale):\n"
              "    var = tf.reduce_sum(x * x, -1)\n    var = var / n\n"
              "    other = tf.sqrt(scale)\n    return x / (tf.sqrt(var) + 1e-5) + other\n")
    first = suspects(source)[0]
    assert first.line == 8 and first.why.startswith("a root of squares")


def test_a_parameter_its_callers_pass_a_square_of_an_unknown_is_of_unknown_origin():
    # `log_density(tf.abs(x))`: the parameter is 0 where the caller's `x` is, unknown
    source = ("import tensorflow as tf\n\n\ndef log_density(x, alpha):\n"
              "    return (alpha - 1) * tf.math.log(x)\n\n\ndef log_prob(x, alpha):\n"
              "    return tf.where(x > 0, log_density(tf.abs(x), alpha), tf.zeros_like(x))\n")
    [log] = [s for s in suspects(source) if s.line == 5]
    assert log.why.startswith("operand of unknown origin")


def test_an_arccos_of_a_cosine_it_computes_is_a_hazard_of_the_value_too():
    # unit vectors' dot passes 1 by rounding (float64 too): NaN without any gradient
    source = ("import numpy as np\n\n\n"
              "def angle(a, b):\n"
              "    a = a / np.linalg.norm(a)\n    b = b / np.linalg.norm(b)\n"
              "    return np.arccos(a.dot(b))\n\n\n"
              "def clipped(a, b):\n"
              "    return np.arccos(np.clip(np.dot(a, b), -1.0, 1.0))\n")
    by_line = by_line_of(source)
    assert "the cosine `a.dot(b)` of l2-normalized vectors" in by_line[7].message
    assert by_line[7].score > by_line[11].score


def test_a_log_method_given_text_is_a_logger():
    source = ("import numpy as np\n\n\ndef run(logger, i, x):\n"
              "    logger.log('** Iteration %i **' % i)\n    logger.log('loss ' + str(x))\n"
              "    logger.log('{}'.format(x))\n    logger.log('loss', x)\n"
              "    return x.log()\n")
    assert [s.line for s in suspects(source)] == [9]


@pytest.mark.parametrize("calls, hazard", [
    # a logging module's `log` writes a message, whatever it is given
    ("    log = infolog.log\n    log(message)\n    say(describe(x))\n", False),
    # a record (`wandb.log({"reward": r})`): not a number
    ("    wandb.log({'reward': x})\n    wandb.log(dict(loss=x))\n"
     "    wandb.log({k for k in x})\n", False),
    # a keyword no log function takes; `x.log()` is the function (its result kept)
    ("    tracker.log(message, step=3)\n    log(message, commit=False)\n    y = x.log()\n",
     True)])
def test_a_loggers_log_is_no_log(calls, hazard):
    """Only the last lines are hazards: `np.log(x, out=x)` and another module's `log`,
    taken at its name (`znp.log(x)`), and `x.log()` where a case ends with it."""
    source = ("import numpy as np\nimport wandb\nfrom util import infolog\n"
              "from util.logger import log as say\nfrom lib import znp\n\n\n"
              "def train(message, tracker, x):\n"
              f"{calls}"
              "    return np.log(x, out=x) + znp.log(x)\n")
    last = source.count("\n")
    expected = {last - 1, last} if hazard else {last}
    assert {s.line for s in suspects(source)} == expected


def test_command_line_values_take_no_gradient():
    """`args = parser.parse_args()` (through a function of the file that returns it) and
    absl's `FLAGS` hold a command line's values: a learning-rate schedule of them and of a
    placeholder's step passes no gradient of a weight."""
    source = ("import argparse\nimport tensorflow as tf\nfrom absl import flags\n\n"
              "FLAGS = flags.FLAGS\n\n\n"
              "def get_arguments():\n"
              "    parser = argparse.ArgumentParser()\n"
              "    parser.add_argument('--num-steps', type=int, default=20000)\n"
              "    return parser.parse_args()\n\n\n"
              "def main(w):\n"
              "    args = get_arguments()\n"
              "    step = tf.compat.v1.placeholder(tf.float32, shape=())\n"
              "    poly = tf.pow(1 - step / args.num_steps, 0.9)\n"
              "    decay = tf.pow(1 - step / FLAGS.max_steps, 0.9)\n"
              "    trained = tf.pow(1 - step / w, 0.9)\n"
              "    return poly, decay, trained\n")
    by_line = by_line_of(source)
    for line in (17, 18):
        assert "no gradient (computed from data alone" in by_line[line].why
    assert "no gradient" not in by_line[19].why


def test_a_square_in_a_divisor_makes_no_distance():
    """The root of `n // b ** 2` is 0 where n < b², not where two points coincide; a
    square outside the divisor still makes one."""
    source = ("import numpy as np\n\n\n"
              "def sizes(img, n, b, p, q):\n"
              "    blocks = np.sqrt(n // (b ** 2))\n"
              "    gap = np.sqrt(p ** 2 // (q + 1))\n"
              "    cells = np.sqrt(np.prod(img.shape))\n"
              "    return blocks + gap + cells\n")
    by_line = by_line_of(source)
    assert by_line[5].why.startswith("operand of unknown origin")
    assert by_line[6].why.startswith("a root of squares or differences")
    assert "no gradient (a size read from a shape: an integer)" in by_line[7].why


def test_a_size_unpacked_from_a_shape_takes_no_gradient():
    source = ("import numpy as np\n\n\n"
              "def tile(images, x):\n"
              "    n, h, w, c = np.asarray(images).shape\n"
              "    rows = np.sqrt(n)\n"
              "    return rows * np.sqrt(x)\n")
    by_line = by_line_of(source)
    assert "no gradient (a size read from a shape: an integer)" in by_line[6].why
    assert by_line[6].score < by_line[7].score


def test_pytorchs_ops_over_lists_are_the_ops():
    """`torch._foreach_div(us, ns)`, `torch._foreach_sqrt_(gs)`: the division and the root,
    each applied to every tensor of a list (in place with `_`)."""
    source = ("import torch\n\n\n"
              "def step(updates, norms, grads):\n"
              "    ratio = torch._foreach_div(updates, norms)\n"
              "    torch._foreach_sqrt_(grads)\n"
              "    return ratio, torch._foreach_add(updates, 1.0)\n")
    assert [(s.line, s.code) for s in suspects(source)] == [(5, "NAN101"), (6, "NAN201")]


def test_an_infinite_start_of_a_best_so_far_is_no_fill():
    """`best = float("inf")` read only by comparisons, `min` and a return: no arithmetic
    meets it. An infinity that a stack or a select takes is a fill."""
    source = ("import numpy as np\n\n\n"
              "def train(losses, scores, rows):\n"
              "    best = float('inf')\n"
              "    for loss in losses:\n"
              "        if loss < best:\n"
              "            best = loss\n"
              "    lowest = np.inf\n"
              "    for s in scores:\n"
              "        lowest = min(lowest, s)\n"
              "    pad = -np.inf\n"
              "    stacked = np.stack([rows, pad])\n"
              "    return best, lowest, stacked\n")
    assert [s.line for s in suspects(source) if "fill value" in s.message] == [12]


def test_a_division_of_or_by_text_joins_a_path():
    """`root / "model.pb"`, `root / str(step)`, `root / now.strftime(...)`,
    `root / "_".join(parts)`: pathlib's joins, no division."""
    source = ("from datetime import datetime\nfrom pathlib import Path\n"
              "import numpy as np\n\n\n"
              "def folders(root, step, x):\n"
              "    a = Path(root) / 'model.pb'\n"
              "    b = Path(root) / str(step)\n"
              "    c = Path(root) / datetime.now().strftime('%Y%m%d')\n"
              "    d = Path(root) / '_'.join(['run', str(step)])\n"
              "    return a, b, c, d, np.sum(x) / step\n")
    assert [s.line for s in suspects(source)] == [11]


def test_an_exp_of_an_imaginary_value_is_no_overflow():
    """`exp(2j * pi * phase)` lies on the unit circle (a random phase, a phase of a
    spectrogram); `exp(a + 1j * b)` has the magnitude `exp(a)`."""
    source = ("import numpy as np\n\n\n"
              "def phases(spectrum, a, b):\n"
              "    p = np.exp(2j * np.pi * np.random.rand(*spectrum.shape))\n"
              "    q = np.exp(-1j * np.angle(spectrum))\n"
              "    return p * q * np.exp(a + 1j * b)\n")
    assert [(s.line, s.code) for s in suspects(source)] == [(7, "NAN104")]


REPEATED = """import numpy as np


class Scaler:
    def fit(self, x):
        self.std = np.std(x, 0)

    def standardize(self, x):
        x /= self.std
        return x / total

    def flow(self, x):
        x /= self.std
        return x
"""


def test_one_hazard_written_again_is_one_entry_naming_its_other_places(tmp_path):
    # The same op on the same operand, with the same standing: one entry, the first place
    # its own, the others listed; it ranks once, so the next hazard is second, not third.
    make(tmp_path, {"scale.py": REPEATED})
    rows = json.loads(run_cli("suspects", "--format", "json", "--no-cache",
                              cwd=tmp_path).stdout)["suspects"]
    first = rows[0]
    assert (first["line"], first["message"]) == (9, "division by `self.std`")
    assert [place["line"] for place in first["also"]] == [13]
    assert [row["line"] for row in rows].count(13) == 0
    assert rows[1]["line"] == 10 and rows[1]["also"] == []
    text = run_cli("suspects", "--no-cache", cwd=tmp_path).stdout
    assert "also: line 13" in text


TRAIN_AND_EVAL = """import tensorflow as tf


class Trainer:
    def train_step(self, strategy, model, optimizer, images, labels):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(model(images) - labels) / strategy.num_replicas
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))

    def log_step(self, strategy, model, images, labels):
        loss = tf.reduce_mean(model(images) - labels) / strategy.num_replicas
        tf.summary.scalar("loss", loss)
"""


def test_a_copy_that_stands_lower_is_named_among_the_places_of_the_better_one(tmp_path):
    # The same division in the training step (it reaches the loss) and in a step that
    # only logs it (no gradient there): one hazard written twice, one entry for both.
    make(tmp_path, {"steps.py": TRAIN_AND_EVAL})
    rows = json.loads(run_cli("suspects", "--format", "json", "--no-cache",
                              cwd=tmp_path).stdout)["suspects"]
    assert [(row["line"], [p["line"] for p in row["also"]]) for row in rows
            if row["message"] == "division by `strategy.num_replicas`"] == [(7, [12])]
    assert 12 not in [row["line"] for row in rows]


COPY_AND_OWN = """import tensorflow as tf


class Normalizer:
    def build(self, size):
        self.steps = tf.Variable(0.0, trainable=False)
        self.total = tf.Variable(tf.zeros([size]), trainable=False)
        self.squares = tf.Variable(tf.zeros([size]), trainable=False)

    def update(self, x):
        self.steps.assign_add(1.0)
        self.total.assign_add(tf.reduce_sum(x, 0))
        self.squares.assign_add(tf.reduce_sum(x * x, 0))
        mean = self.total / self.steps
        return tf.sqrt(self.squares / self.steps - tf.square(mean))
"""


def test_a_line_whose_best_is_a_copy_still_shows_its_own_hazard(tmp_path):
    # Line 15 divides by the counter as line 14 does (one entry, line 15 among its places),
    # and takes a root of a difference, which no other line has: that is line 15's entry.
    make(tmp_path, {"norm.py": COPY_AND_OWN})
    rows = json.loads(run_cli("suspects", "--format", "json", "--no-cache",
                              cwd=tmp_path).stdout)["suspects"]
    division = next(row for row in rows if row["line"] == 14)
    assert division["code"] == "NAN101" and [p["line"] for p in division["also"]] == [15]
    own = [row for row in rows if row["line"] == 15]
    assert [(row["code"], row["message"].split("`")[0]) for row in own] == [
        ("NAN201", "square root of ")]
    assert len({(row["line"]) for row in rows}) == len(rows)  # one entry per line


def test_an_epsilon_under_a_root_guards_a_division_by_it():
    source = ("import tensorflow as tf\n\n\ndef step(g, v, w, s):\n"
              "    a = g / tf.sqrt(v + 1e-6)\n    b = g / tf.sqrt(w)\n"
              "    c = g / tf.sqrt(v + 1e-12)\n    return a + b + c + s\n")
    found = [s for s in suspects(source) if s.code == "NAN101"]
    assert found[0].line == 6 and found[0].why.startswith("a statistic")
    by_line = {s.line: s for s in found}
    assert 5 not in by_line or by_line[5].why.startswith("guarded: an epsilon 1e-06")
    assert 7 not in by_line or by_line[7].why.startswith("partly guarded: an epsilon 1e-12")
    assert all(s.score < found[0].score for s in found[1:])


def test_a_matrix_root_is_listed_and_a_path_join_is_no_division():
    # FID: the root of a product of covariances, singular for fewer samples than features.
    source = ("import numpy as np\nfrom scipy import linalg\nfrom pathlib import Path\n\n\n"
              "def fid(a, b, root):\n    model = Path(root) / 'inception.pb'\n"
              "    s1, s2 = np.cov(a, rowvar=False), np.cov(b, rowvar=False)\n"
              "    return linalg.sqrtm(s1.dot(s2)), model\n")
    found = suspects(source)
    assert [s.line for s in found] == [9]
    assert found[0].message.startswith("matrix square root (not finite for a singular")


def test_a_notebook_names_the_cells_of_a_hazard_written_again(tmp_path):
    notebook = _notebook(
        "import numpy as np\nx = np.load('a.npy')\n",
        "z = (x - x.mean(0)) / x.std(0)\n", "w = (x - x.mean(0)) / x.std(0)\n")
    make(tmp_path, {"prep.ipynb": notebook})
    rows = json.loads(run_cli("suspects", "--format", "json", "--no-cache",
                              cwd=tmp_path).stdout)["suspects"]
    assert (rows[0]["cell"], rows[0]["line"]) == (2, 1)
    assert [(p["cell"], p["line"]) for p in rows[0]["also"]] == [(3, 1)]
    assert "also: cell 3:1" in run_cli("suspects", "--no-cache", cwd=tmp_path).stdout


def test_a_keras_evaluation_step_is_no_test():
    # No gradient is taken in `test_step`, but its loss is the `val_loss` a user watches.
    source = ("import tensorflow as tf\n\n\nclass Model(tf.keras.Model):\n"
              "    def test_step(self, data):\n        x, y = data\n"
              "        return tf.reduce_mean(self(x)) / tf.reduce_sum(y)\n\n\n"
              "def test_ratio(a, b):\n    return tf.reduce_mean(a) / tf.reduce_sum(b)\n")
    by_line = by_line_of(source)
    assert by_line[7].why.endswith("no gradient (in an evaluation step)")
    assert by_line[11].why.endswith("in a test")
    assert by_line[7].score > by_line[11].score


def test_a_value_whose_backward_is_called_is_differentiated():
    # PyTorch's `loss.backward()` takes the gradient of `loss`, as `tape.gradient` does.
    source = ("import torch\n\n\ndef step(model, x, y):\n"
              "    loss = ((model(x) - y) ** 2).mean().sqrt()\n"
              "    loss.backward()\n\n\n"
              "def report(model, x, y):\n"
              "    return ((model(x) - y) ** 2).mean().sqrt()\n")
    by_line = by_line_of(source)
    assert "reaches the loss" in by_line[5].why
    assert "reach unknown" in by_line[10].why
    assert by_line[5].score > by_line[10].score


def test_a_statistical_test_is_a_computation_not_a_unit_test():
    # pytest and unittest collect `test_*`; `z_test`, `wald_test` compute a statistic.
    source = ("import numpy as np\n\n\ndef wald_test(theta, sd):\n"
              "    return np.abs(theta / sd)\n\n\n"
              "def test_wald(theta, sd):\n    return np.abs(theta / sd)\n")
    by_line = by_line_of(source)
    assert "in a test" not in by_line[5].why and by_line[9].why.endswith("in a test")
    assert by_line[5].score > by_line[9].score


@pytest.mark.parametrize("name, loss", [
    ("dice_loss", True), ("soft_dice", True), ("nll", True), ("binned_nll", True),
    ("sample_indices", False), ("read_conll", False), ("scale", False)])
def test_a_function_named_like_a_loss_computes_one_indices_hold_no_dice(name, loss):
    source = f"import tensorflow as tf\n\n\ndef {name}(a, b):\n    return tf.math.log(a) / b\n"
    assert ("in a loss" in suspects(source)[0].why) == loss
    # check: a root of a distance is a gradient hazard where a loss, by its name, takes it
    distance = (f"import tensorflow as tf\n\n\ndef {name}(x, y):\n"
                f"    return tf.sqrt(tf.reduce_sum(tf.square(x - y), -1))\n")
    found = lint_source(distance, "d.py", Config().options_for(None))
    assert [f.code for f in found] == (["NAN202"] if loss else [])


@pytest.mark.parametrize("default, statistic", [("1", True), ("0.5", True), ("-1", False)])
def test_a_power_by_a_positive_number_is_0_where_its_base_is(default, statistic):
    # a power spectrum: a sum of squares, raised to a power; of a silent frame it is 0
    source = (f"import torch\n\n\ndef magnitude(stft, power={default}):\n"
              f"    spectr = stft.pow(2).sum(-1).pow(power)\n"
              f"    return torch.log(spectr)\n")
    log = next(s for s in suspects(source) if s.line == 6)
    assert log.why.startswith("a statistic, 0 for an all-zero") == statistic


def test_a_number_added_to_a_square_of_an_unknown_value_says_nothing_of_its_zeros():
    # `1 - a²` of an action nothing bounds is 0 at |a| = 1 and negative past it: unknown,
    # not a value shown to stay away from 0; spelled as a call, an operator or a method
    source = ("import tensorflow as tf\nimport torch\n\n\ndef f(action):\n"
              "    x = tf.math.log(1 - tf.square(action) + 1e-6)\n"
              "    y = torch.log(1 - action.pow(2) + 1e-6)\n"
              "    z = tf.math.log(1 - action ** 2 + 1e-6)\n"
              "    return x + y + z + tf.math.log(1 + tf.square(action))\n")
    why = {s.line: s.why for s in suspects(source)}
    assert [why[line].split(";")[0] for line in (6, 7, 8)] == ["operand of unknown origin"] * 3
    assert why[9].startswith("guarded: its operand is kept above 0")  # 1 + a² is at least 1


def test_a_registered_buffer_is_the_attribute_and_an_update_keeps_its_first_zero():
    # `register_buffer("name", value)` sets `self.name` (PyTorch); `self.name += x` and
    # `self.name.mul_(b)` update the whole buffer, which is 0 until the first update.
    source = ("import torch\n\n\n"
              "class RunningScale(torch.nn.Module):\n"
              "    def __init__(self, size):\n"
              "        super().__init__()\n"
              "        self.register_buffer('mean_square', torch.zeros(size))\n"
              "        self.register_buffer('count', torch.zeros(size))\n"
              "\n"
              "    def update(self, x):\n"
              "        self.mean_square += x.square()\n"
              "\n"
              "    def scaled(self, x):\n"
              "        y = x * self.mean_square.rsqrt()\n"
              "        return y / self.count\n")
    by_line = by_line_of(source)
    assert "output of `torch.zeros` (line 7), which stays 0 until it is first updated" in (
        by_line[14].message)
    assert "output of `torch.zeros` (line 8), which is all zeros" in by_line[15].message
    ones = source.replace("'mean_square', torch.zeros", "'mean_square', torch.ones")
    assert "torch" not in by_line_of(ones)[14].message


def test_an_array_cast_to_float16_is_listed_and_a_logged_record_is_no_log():
    source = ("import numpy as np\n"
              "import torch\n\n\n"
              "def store(model, x, run):\n"
              "    emb = model(x)\n"
              "    half = emb.detach().cpu().numpy().astype(np.float16)\n"
              "    run.log({'loss': np.mean(emb)})\n"
              "    run.log({k: v for k, v in emb.items()})\n"
              "    return half, (emb @ emb.T).half(), emb.half(1)\n")
    by_line = by_line_of(source)
    assert sorted(by_line) == [7, 10]
    assert by_line[7].code == by_line[10].code == "NAN401"
    assert by_line[7].message == "float16 cast of `emb.detach().cpu().numpy()`"
    assert by_line[10].why.startswith("a sum, square, variance or norm: past 65504")  # `@`


def test_an_exp_replaced_where_a_test_of_its_input_holds_is_listed_first():
    # The test says the input gets large, and the exp is taken there all the same (the
    # value and the gradient are NaN: checked under TF in the identities' tests).
    source = ("import tensorflow as tf\n\n\n"
              "def safe_exp(w, thresh):\n"
              "    linear = tf.cast(w > thresh, tf.float32)\n"
              "    exp_out = tf.exp(w)\n"
              "    return linear * (w - thresh + 1.0) + (1.0 - linear) * exp_out\n\n\n"
              "def elu(x):\n"
              "    return tf.where(x > 0, x, tf.math.expm1(x))\n\n\n"
              "def other(x, y, z):\n"
              "    return tf.where(y > 0, x, tf.exp(x)) + tf.exp(z) / tf.reduce_sum(x)\n\n\n"
              "def falling(x):\n"
              "    a = tf.where(x > 0, x, tf.exp(-x))\n"
              "    b = tf.where((x > 0) & (x < 9), x, tf.exp(x))\n"
              "    return a + b\n")
    ranked = suspects(source)
    assert [s.line for s in ranked[:2]] == [6, 11]
    # exp(-x) is small where `x > 0` drops it; a test of two comparisons is not read.
    assert {19, 20} <= {s.line for s in ranked}
    for suspect in ranked[:2]:
        assert suspect.why.startswith("an exp taken also where a test of its input picks")
    assert not any(s.why.startswith("an exp taken also") for s in ranked[2:])


def test_a_name_updated_in_place_keeps_its_first_zero_only_until_then():
    source = ("import torch\n\n\n"
              "def step(p, grad, beta2):\n"
              "    exp_avg_sq = torch.zeros_like(p)\n"
              "    exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)\n"
              "    denom = exp_avg_sq.rsqrt()\n"
              "    count = torch.zeros_like(p)\n"
              "    return p * denom + grad / count\n")
    by_line = by_line_of(source)
    assert "`torch.zeros_like` (line 5), which stays 0 until it is first updated" in (
        by_line[7].message)
    assert "`torch.zeros_like` (line 8), which is all zeros" in by_line[9].message


def test_one_minus_a_square_ranks_above_a_difference_as_a_value_at_the_edge_of_its_domain():
    # `1 - x²` is written for an x in [-1, 1] (a sine from a cosine, a t statistic from a
    # correlation): 0 where x reaches ±1, below 0 past it; a plain difference says less.
    source = ("import numpy as np\nimport tensorflow as tf\n\n\n"
              "def spread(a, b):\n    return tf.sqrt(a - b)\n\n\n"
              "def sine(w):\n    return tf.sqrt(1.0 - tf.square(w))\n\n\n"
              "def t_stat(r, dof):\n    return r * np.sqrt(dof / (1 - r ** 2))\n")
    ranked = suspects(source)
    assert [s.line for s in ranked] == [10, 14, 6]
    assert all(s.why.startswith("`1 - x²`, written for an x in [-1, 1]") for s in ranked[:2])


def test_a_division_by_a_width_or_height_of_boxes_ranks_as_zero_padding_can_make_it_0():
    # Box tensors are padded to a fixed number of boxes with all-zero rows: their widths
    # and heights are 0 there. Anchors are generated, not padded; other names say nothing.
    source = ("import tensorflow as tf\n\n\n"
              "def aspect(gt_boxes, anchors, x, y):\n"
              "    a = x / y\n"
              "    b = anchors[..., 2] / anchors[..., 3]\n"
              "    h = gt_boxes[:, 3]\n"
              "    c = gt_boxes[:, 2] / h\n"
              "    return a + b + c\n")
    ranked = suspects(source)
    assert ranked[0].line == 8 and ranked[0].why.startswith("a width or height of boxes")
    assert not any(s.why.startswith("a width or height") for s in ranked[1:])


def test_a_distribution_parameter_whose_log_the_density_takes_is_listed():
    # a Poisson rate, a Gamma rate: log(0) is -inf, and below 0 NaN; a positive constant or
    # an exp is no hazard
    source = ("import numpyro.distributions as dist\nimport torch\n\n\n"
              "def model(incidence, ihr, theta, mu, x):\n"
              "    a = dist.Poisson(incidence * ihr).log_prob(x)\n"
              "    b = torch.distributions.Gamma(2.0, theta).log_prob(x)\n"
              "    c = dist.Gamma(2.0, 1.0).log_prob(x)\n"
              "    d = dist.Exponential(rate=torch.exp(mu)).log_prob(x)\n"
              "    return a + b + c + d\n")
    ranked = [s for s in suspects(source) if s.code == "NAN102"]
    assert [s.line for s in ranked] == [6, 7]
    assert ranked[0].message.startswith("distribution parameter")


def test_an_epsilon_whose_square_float32_cannot_hold_does_not_guard_a_division():
    # the gradient of a / (s + 1e-20) at s = 0 is -a / 1e-40: inf in float32
    source = ("import tensorflow as tf\n\n\ndef loss(x, y):\n"
              "    a = tf.reduce_sum(x) / (tf.reduce_sum(tf.square(y)) + 1e-8)\n"
              "    b = tf.reduce_sum(x) / (tf.reduce_sum(tf.abs(y)) + 1e-20)\n"
              "    return a + b\n")
    ranked = suspects(source)
    assert [s.line for s in ranked] == [6, 5]
    assert "whose square float32 cannot hold" in ranked[0].why
    assert ranked[1].why.startswith("partly guarded")


def test_the_gradient_epsilon_floor_is_where_float32_overflows():
    tf = pytest.importorskip("tensorflow")
    from nanlint.suspects import FLOAT32_SQUARE_FLOOR
    for epsilon, finite in ((FLOAT32_SQUARE_FLOOR * 1.1, True), (FLOAT32_SQUARE_FLOOR / 1.1,
                                                                 False)):
        b = tf.constant(0.0)
        with tf.GradientTape() as tape:
            tape.watch(b)
            quotient = 1.0 / (b + epsilon)
        assert bool(tf.math.is_finite(tape.gradient(quotient, b))) is finite


def test_an_unbiased_deviation_is_nan_for_a_single_sample():
    # PyTorch's std and var divide by n - 1 unless told not to; numpy's by n unless ddof=1
    source = ("import numpy as np\nimport torch\n\n\ndef stats(arr, x, y):\n"
              "    a = torch.std(arr, dim=0)\n"
              "    b = np.std(x, axis=0)\n"
              "    c = x.var(0)\n"
              "    d = np.var(y, ddof=1)\n"
              "    e = torch.var(arr, unbiased=False)\n"
              "    return a, b, c, d, e\n")
    unbiased = {s.line for s in suspects(source) if s.why.startswith("an unbiased estimate")}
    assert unbiased == {6, 8, 9}
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert np.isnan(np.var(np.ones((1, 3)), axis=0, ddof=1)).all()
        assert np.var(np.ones((1, 3)), axis=0).tolist() == [0.0, 0.0, 0.0]


def test_an_array_method_divides_by_n_in_a_file_without_pytorch():
    source = "import numpy as np\n\n\ndef scale(x):\n    return x / x.std(0)\n"
    assert not [s for s in suspects(source) if s.why.startswith("an unbiased estimate")]


def test_an_epsilon_added_to_a_log_or_a_reciprocal_root_instead_of_its_operand():
    # the guard is misplaced: log(0) + 1e-6 is -inf, rsqrt(0) + eps is inf; a root plus an
    # epsilon is a guard (the root is finite at 0), and a noise sample named eps is no
    # epsilon
    source = ("import torch\n\n\ndef feats(feat, v, x, s, group, eps=1e-8):\n"
              "    a = torch.log(feat) + 1e-6\n"
              "    b = v.rsqrt().add_(group['eps'])\n"
              "    c = torch.sqrt(x) + 1e-8\n"
              "    noise = torch.randn_like(s)\n"
              "    d = torch.log(s) + 0.5 * torch.pow(noise, 2)\n"
              "    e = torch.log(s) + eps\n"
              "    return a, b, c, d, e\n")
    misplaced = {s.line for s in suspects(source) if s.why.startswith("an epsilon added")}
    assert misplaced == {5, 6, 10}


def test_a_function_of_y_true_and_y_pred_named_as_an_accuracy_is_a_metric():
    # Keras gives metrics a loss's signature; an accuracy's name says which it is, and a
    # loss that calls it still makes it part of the objective
    source = ("from tensorflow.keras import backend as K\n\n\n"
              "def masked_accuracy(y_true, y_pred, mask):\n"
              "    hits = y_true * y_pred\n"
              "    return K.sum(hits * mask) / K.sum(mask)\n\n\n"
              "def soft_acc(y_true, y_pred):\n"
              "    return K.sum(y_true * y_pred) / K.sum(y_true)\n\n\n"
              "def accuracy_loss(y_true, y_pred):\n"
              "    return 1 - soft_acc(y_true, y_pred)\n")
    by_line = by_line_of(source)
    assert "in a metric" in by_line[6].why and "in a loss" not in by_line[6].why
    assert "reaches the loss" in by_line[10].why
    assert by_line[10].score > by_line[6].score


def test_a_vectors_dot_with_itself_is_its_squared_norm():
    # at least 0, and 0 for the zero vector: a root of it is a distance's, not of a value
    # that can be negative
    source = ("import numpy as np\n\n\ndef unit(data, other):\n"
              "    n = np.sqrt(np.dot(data, data))\n"
              "    m = np.sqrt(data.dot(data))\n"
              "    k = np.sqrt(np.dot(data, other))\n"
              "    return n, m, k\n")
    by_line = by_line_of(source)
    assert "can be negative" in by_line[7].message
    for line in (5, 6):
        assert "can be negative" not in by_line[line].message
        assert by_line[line].why.startswith("a root of squares or differences")


def test_what_a_function_of_the_file_returns_is_read_at_its_call():
    # `log(shifted(y))` is the log of the difference `shifted` returns; a method too. A
    # function that returns its operand plus an epsilon guards it.
    source = ("import tensorflow as tf\n\n\n"
              "def shifted(y):\n    return tf.reduce_sum(y * y, axis=-1) - 1.0\n\n\n"
              "def padded(y):\n    return tf.reduce_sum(y, axis=-1) + 1e-3\n\n\n"
              "class Head:\n    def gap(self, y):\n        return y[:, 0] - y[:, 1]\n\n"
              "    def loss(self, y):\n"
              "        return tf.math.log(self.gap(y)) + 1.0 / padded(y)\n\n\n"
              "def loss(y):\n    return tf.math.log(shifted(y))\n")
    listed = by_line_of(source)
    assert listed[21].why.startswith("a difference, 0 where its sides are equal")
    assert listed[17].why.startswith("a difference, 0 where its sides are equal")
    guarded = [s for s in suspects(source) if "padded" in s.message]
    assert guarded == [] or guarded[0].why.startswith("guarded")


def test_an_exp_under_a_division_is_named_for_what_takes_it():
    # `1 / exp(x)` is no softplus: the reason names the form, the examples in brackets
    source = "import tensorflow as tf\n\n\ndef weight(x):\n    return 1.0 / tf.exp(x)\n"
    listed = by_line_of(source)
    assert listed[5].why.startswith("an exp a log or a division takes")
