"""Gradient reach: where a value goes decides the gradient rules, the forward rules'
wording and confidence, and the `gradient` field of JSON and SARIF findings.

The fixtures tests/fixtures/NAN*_reach*.py cover each kind of objective and of sink in TF1,
TF2 and Keras 3 style; these tests cover the wording, the confidence, the paths through
names, loops and containers, and that reach is computed once per function."""

import textwrap

import pytest

from conftest import options_for
from nanlint.config import Config
from nanlint.analysis import defuse
from nanlint.engine import lint_source


def lint(source, codes=None):
    return lint_source(textwrap.dedent(source), "example.py", options_for(codes))


def codes_at(findings):
    return sorted((f.line, f.code) for f in findings)


METRIC_DIVISION = """
import tensorflow as tf
accuracy = tf.keras.metrics.Mean()

def track(y_true, y_pred):
    hits = tf.reduce_sum(tf.cast(y_pred > 0.5, tf.float32))
    accuracy.update_state(tf.reduce_sum(y_true) / hits)

def loss_fn(y_true, y_pred):
    hits = tf.reduce_sum(tf.cast(y_pred > 0.5, tf.float32))
    return tf.reduce_sum(y_true) / hits
"""


def test_a_forward_hazard_in_a_metric_says_so_one_step_less_confident():
    metric, loss = lint(METRIC_DIVISION, ["NAN101"])
    assert metric.line == 7 and loss.line == 11
    assert metric.message.endswith("(in a metric; no gradient flows here)")
    assert "no gradient" not in loss.message
    assert (loss.confidence, metric.confidence) == ("high", "medium")
    assert (loss.gradient, metric.gradient) == (True, False)


def test_min_confidence_applies_to_the_lowered_confidence():
    options = options_for(["NAN101"])
    options.min_confidence = "high"
    findings = lint_source(textwrap.dedent(METRIC_DIVISION), "example.py", options)
    assert [f.line for f in findings] == [11]


F1_OF_COUNTS = """
import tensorflow as tf

def f1(y_true, y_pred):
    y_pred = tf.argmax(y_pred, axis=-1)
    cm = tf.math.confusion_matrix(tf.reshape(y_true, [-1]), tf.reshape(y_pred, [-1]))
    tp = tf.cast(tf.linalg.diag_part(cm), tf.float32)
    precision = tp / tf.cast(tf.reduce_sum(cm, axis=0), tf.float32)
    recall = tp / tf.cast(tf.reduce_sum(cm, axis=1), tf.float32)
    return tf.reduce_mean(2 * precision * recall / (precision + recall))

def hits(y_true, y_pred):
    right = tf.cast(tf.equal(y_true, tf.argmax(y_pred, axis=-1)), tf.float32)
    wrong = tf.cast(tf.not_equal(y_true, 0), tf.float32)
    return tf.reduce_sum(right) / tf.reduce_sum(wrong)

def soft_f1(y_true, y_pred):
    tp = tf.reduce_sum(y_true * y_pred, axis=0)
    precision = tp / tf.reduce_sum(y_pred, axis=0)
    recall = tp / tf.reduce_sum(y_true, axis=0)
    return tf.reduce_mean(2 * precision * recall / (precision + recall))
"""


def test_a_function_of_labels_that_returns_no_gradient_is_a_metric():
    """`(y_true, y_pred)` is a loss's signature or a metric's: where everything returned is
    computed through `argmax`, comparisons or integer counts, nothing could train on it."""
    findings = {f.line: f for f in lint(F1_OF_COUNTS, ["NAN101"])}
    assert 10 not in findings  # the F1 of counts: medium, one step less, below check's bar
    counted = findings[15]
    assert counted.message.endswith(
        "(in a metric: what `hits` returns is computed through `tf.equal`, which lets no "
        "gradient back; no gradient flows here)")
    assert (counted.gradient, counted.confidence) == (False, "medium")
    assert [(line, findings[line].gradient) for line in (20, 21)] == [(20, True), (21, True)]


@pytest.mark.parametrize("sink, why", [
    ("print(r)", "only logged"),
    ("tf.summary.scalar('r', r, step=0)", "only summarized"),
    ("tf.print(r)", "only logged"),
    ("r.numpy()", "converted to a NumPy value"),
    ("tf.debugging.assert_less(r, 10.0)", "in an assertion"),
    ("return tf.estimator.EstimatorSpec('eval', loss=y, eval_metric_ops={'r': r})",
     "in a metric"),
    ("return tf.keras.backend.function([y], [r])", "only evaluated by `K.function`"),
])
def test_the_message_names_where_the_value_ends(sink, why):
    source = f"""
    import tensorflow as tf

    def report(y):
        n = tf.reduce_sum(tf.cast(y > 0, tf.float32))
        r = tf.reduce_sum(y) / n
        {sink}
    """
    [finding] = lint(source, ["NAN101"])
    assert finding.message.endswith(f"({why}; no gradient flows here)")
    assert finding.gradient is False


RMSE = "tf.sqrt(tf.reduce_mean(tf.square(p - y)))"


@pytest.mark.parametrize("body, reported", [
    # through names, branches and loops to the objective
    (f"r = {RMSE}\n    q = r * 2\n    opt.minimize(q)", True),
    (f"r = {RMSE}\n    if c:\n        q = r\n    else:\n        q = 0.0\n    opt.minimize(q)",
     True),
    (f"total = 0.0\n    for i in range(3):\n        total = total + {RMSE}\n"
     "    opt.minimize(total)", True),
    (f"losses = []\n    losses.append({RMSE})\n    opt.minimize(tf.add_n(losses))", True),
    (f"parts = {{}}\n    parts['rmse'] = {RMSE}\n    opt.minimize(parts['rmse'])", True),
    # unknown, and `step` is no objective by its name: quiet (`suspects` ranks it)
    (f"r = {RMSE}\n    return r", False),  # a function nobody in the file calls
    (f"self.r = {RMSE}", False),  # an attribute: read anywhere
    (f"opt.minimize(external({RMSE}))", True),  # through an unknown callee
    # only to sinks, along every path
    (f"r = {RMSE}\n    if c:\n        print(r)\n    else:\n        tf.print(r)", False),
    (f"total = 0.0\n    for i in range(3):\n        total = total + {RMSE}\n"
     "    print(total)", False),
    (f"losses = []\n    losses.append({RMSE})\n    print(tf.add_n(losses))", False),
    (f"r = {RMSE}\n    print(r)\n    r = other\n    opt.minimize(r)", False),
    (f"r = tf.cast({RMSE} * 100, tf.int32)\n    opt.minimize(r)", False),
    (f"r = tf.argmax({RMSE})\n    opt.minimize(r)", False),
    (f"r = {RMSE} // 1\n    opt.minimize(r)", False),
    (f"r = {RMSE}\n    opt.minimize(loss, var_list=[r])", False),
    # an array's methods: computed from the array, gradient included; `detach` cuts it
    (f"r = {RMSE}\n    opt.minimize((1.0 - r).mean())", True),
    (f"r = {RMSE}\n    opt.minimize(r.reshape(-1).pow(2).sum())", True),
    (f"r = {RMSE}\n    opt.minimize(r.detach().mean())", False),
    # an op's outputs one by one: top_k's values carry the gradient, its indices do not;
    # a tensor shaped like the value holds none of it
    (f"v, i = tf.nn.top_k({RMSE}, k=2)\n    opt.minimize(tf.reduce_sum(v))", True),
    (f"_, i = tf.nn.top_k({RMSE}, k=2)\n    opt.minimize(tf.reduce_sum(tf.one_hot(i, 3)))",
     False),
    (f"opt.minimize(tf.reduce_sum(tf.zeros_like({RMSE}) + p))", False),
])
def test_paths_to_the_objective(body, reported):
    source = f"import tensorflow as tf\n\ndef step(self, p, y, c, opt, loss, other):\n    {body}\n"
    findings = lint_source(source, "example.py", options_for(["NAN201"]))
    assert bool(findings) is reported, findings


@pytest.mark.parametrize("made", ["tf.distributions.Normal(0.0, r)",
                                  "tfp.distributions.Normal(loc=0.0, scale=r)"])
@pytest.mark.parametrize("used, reported", [
    ("opt.minimize(-tf.reduce_mean(d.log_prob(y)))", True),
    ("opt.minimize(d.entropy())", True),
    ("print(d.log_prob(y))", False)])
def test_a_distributions_densities_carry_its_parameters(made, used, reported):
    source = ("import tensorflow as tf\nimport tensorflow_probability as tfp\n\n"
              f"def step(p, y, opt):\n    r = {RMSE}\n    d = {made}\n    {used}\n")
    findings = lint_source(source, "example.py", options_for(["NAN201"]))
    assert bool(findings) is reported, findings


def test_module_functions_go_where_their_callers_send_them():
    source = """
    import tensorflow as tf

    def distance(a, b):
        return tf.norm(a - b, axis=-1)

    def shown(a, b):
        tf.print(distance(a, b))

    def trained(a, b, opt):
        opt.minimize(tf.reduce_mean(distance(a, b)))
    """
    assert codes_at(lint(source, ["NAN202"])) == [(5, "NAN202")]
    assert codes_at(lint(source.replace("opt.minimize", "print"), ["NAN202"])) == []


COMPARED_ONLY = """
import tensorflow as tf

def ignore_mask(inter, union, threshold):
    iou = inter / union
    {use}
"""


@pytest.mark.parametrize("use, reported", [
    ("return tf.cast(iou < threshold, tf.float32)", False),  # a boolean leaves the comparison
    ("tf.print(iou)\n    return tf.cast(iou < threshold, tf.float32)", True),  # and logged
    ("return iou", True),
])
def test_a_value_only_a_comparison_reads_is_left_to_the_hunt(use, reported):
    source = COMPARED_ONLY.format(use=use)
    union = "tf.reduce_sum(tf.cast(inter > 0, tf.float32))"  # a count: 0 with no overlap
    source = source.replace("inter / union", f"inter / {union}")
    assert [f.line for f in lint(source, ["NAN101"])] == ([5] if reported else [])
    [hunted] = [s for s in lint_source(textwrap.dedent(source), "example.py",
                                      Config().for_suspects().options_for(None))
                if s.line == 5 and s.code == "NAN101"]
    assert ("check leaves out a value that only a comparison reads" in hunted.why) is (
        not reported)


SCHEDULE = """
import tensorflow as tf

class Schedule:
    def __init__(self, log_snr):
        self.snr = tf.exp(log_snr)
        self.noise = 1.0 / (1.0 + self.snr)

    def __call__(self, t):
        return self.noise * t

schedule = Schedule({argument})

def step(model, x, t):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x) * schedule(t)))
    return tape.gradient(loss, model.trainable_variables)
"""


@pytest.mark.parametrize("argument, reported", [
    ("3.0", False),  # the class's constructions pass a number: no weight is upstream
    ("tf.keras.layers.Dense(1)(tf.ones([1, 1]))", True),  # a layer's output
])
def test_a_constructor_passes_its_arguments_to_init(argument, reported):
    found = lint(SCHEDULE.format(argument=argument), ["NAN104"])
    assert [f.line for f in found] == ([7] if reported else [])


def test_a_parameter_goes_where_the_function_sends_it():
    source = """
    import tensorflow as tf

    def log_it(value):
        tf.summary.scalar("v", value, step=0)

    def step(a, b):
        log_it(tf.norm(a - b))
    """
    assert lint(source, ["NAN202"]) == []


def test_each_function_is_analysed_once(monkeypatch):
    """Reach is computed once per function, however many findings it holds."""
    built = []
    original = defuse.Body.__init__

    def counting(self, node):
        built.append(node)
        original(self, node)

    monkeypatch.setattr(defuse.Body, "__init__", counting)
    functions = "".join(
        f"def f{i}_loss(a, b):\n    d = tf.norm(a - b)\n    e = tf.norm(b - a)\n"
        f"    print(tf.norm(a - b + 1))\n    return d + e\n\n" for i in range(20))
    findings = lint_source("import tensorflow as tf\n\n" + functions, "example.py",
                           options_for(["NAN202"]))
    assert len(findings) == 40
    assert len(built) == len({id(node) for node in built}) <= 21


@pytest.mark.parametrize("source, why", [
    # TF2: a function named like an objective
    ("import tensorflow as tf\n\ndef triplet_cost(a, b):\n"
     "    return tf.reduce_mean(tf.norm(a - b, axis=-1))\n", "`triplet_cost` is an objective"),
    # TF1: a penalty term built in the graph, named as one
    ("import tensorflow.compat.v1 as tf\n\ndef smoothness_penalty(a, b):\n"
     "    return tf.sqrt(tf.reduce_sum(tf.square(a - b)))\n",
     "`smoothness_penalty` is an objective"),
    # Keras 3: a layer's call, trained with its model
    ("import keras\nfrom keras import ops\n\nclass Spread(keras.layers.Layer):\n"
     "    def call(self, x):\n        return ops.sqrt(ops.var(x, axis=-1))\n",
     "the `call` of `Spread`, trained with its model"),
    # a function a Lambda layer runs
    ("import tensorflow as tf\nfrom tensorflow.keras import backend as K\n\n"
     "def distance(pair):\n    a, b = pair\n    return K.sqrt(K.sum(K.square(a - b), axis=1))\n\n"
     "layer = tf.keras.layers.Lambda(distance)\n", "run by a Keras `Lambda` layer"),
])
def test_a_gradient_hazard_with_unknown_reach_is_reported_by_convention(source, why):
    [finding] = lint_source(source, "example.py", options_for(["NAN201", "NAN202"]))
    assert f"(a gradient flows by convention: {why}" in finding.message
    assert finding.confidence in ("medium", "low")


@pytest.mark.parametrize("source", [
    # TF2: a helper nobody in the file calls, named like nothing
    "import tensorflow as tf\n\ndef spread(x):\n    return tf.math.reduce_std(x, axis=0)\n",
    # TF1: graph code whose tensor goes nowhere the file shows
    "import tensorflow.compat.v1 as tf\nd = tf.sqrt(tf.reduce_sum(tf.square(a - b)))\n",
    # Keras 3: a plain function, no layer
    "from keras import ops\n\ndef radius(x):\n    return ops.norm(ops.relu(x))\n",
])
def test_a_gradient_hazard_with_unknown_reach_and_no_convention_is_quiet(source):
    from nanlint.config import Config

    assert lint_source(source, "example.py", options_for(["NAN201", "NAN202"])) == []
    ranked = lint_source(source, "example.py", Config().for_suspects().options_for(None))
    assert [f.code for f in ranked if f.score is not None]  # the hunt still lists it


@pytest.mark.parametrize("path, reported", [
    ("losses.py", True), ("ranking_losses.py", True), ("contrastive_loss.py", True),
    ("pkg/losses/pairwise.py", True), ("pkg/models/pairwise.py", False), ("lossless.py", False),
])
@pytest.mark.parametrize("imports, norm", [
    ("import tensorflow.compat.v1 as tf1", "tf1.norm"),
    ("import tensorflow as tf", "tf.norm"),
    ("from keras import ops", "ops.norm"),
])
def test_a_module_of_losses_is_an_objective_by_convention(path, reported, imports, norm):
    # Library code: nothing in the file differentiates `pair_gap`, but the module's name
    # says it holds losses that other files train with.
    source = f"{imports}\n\n\ndef pair_gap(a, b):\n    return {norm}(a - b, axis=-1)\n"
    findings = lint_source(source, path, options_for(["NAN202"]))
    assert bool(findings) is reported
    if reported:
        [finding] = findings
        assert finding.confidence == "medium"
        assert "where losses are defined" in finding.message


@pytest.mark.parametrize("qualified, normal", [
    ("tensorflow._api.v1.keras.backend.function", "keras.backend.function"),
    ("tensorflow.compat.v1.keras.backend.function", "keras.backend.function"),
    ("tensorflow.summary.scalar", "tensorflow.summary.scalar"),
])
def test_sinks_read_a_module_through_its_aliases(qualified, normal):
    from nanlint.analysis import sinks
    assert sinks.normalized(qualified) == normal


# A penalty picked from a dict of functions by a mode (TF1 style), the norm in a helper.
DISPATCHED = """
import tensorflow as tf

def _norm(x):
    return tf.norm(tf.reshape(x, [tf.shape(x)[0], -1]), axis=1)

def _one_centered(grad):
    return tf.reduce_mean((_norm(grad) - 1.0) ** 2)

def _zero_centered(grad):
    return tf.reduce_mean(_norm(grad) ** 2)

def penalty(critic, real, fake, mode):
    modes = {"1-gp": _one_centered, "0-gp": _zero_centered}
    alpha = tf.random.uniform([tf.shape(real)[0], 1, 1, 1])
    x = real + alpha * (fake - real)
    grad = tf.gradients(critic(x), x)[0]
    PICK

def critic_loss(critic, real, fake):
    USE
"""
INTO_THE_LOSS = ("return tf.reduce_mean(critic(fake)) - tf.reduce_mean(critic(real)) + "
                 "10.0 * penalty(critic, real, fake, '1-gp')")
LOGGED = ("tf.summary.scalar('gp', penalty(critic, real, fake, '1-gp'))\n"
          "    return tf.reduce_mean(critic(fake)) - tf.reduce_mean(critic(real))")


@pytest.mark.parametrize("pick", ["return modes[mode](grad)",
                                  "penalty_of = modes[mode]\n    return penalty_of(grad)"])
def test_a_call_through_a_dict_of_functions_calls_each(pick):
    # the gradient reaches the helpers' parameter through the dict, and their result the
    # loss: the norm's gradient hazard has its evidence and its reach
    found = lint(DISPATCHED.replace("PICK", pick).replace("USE", INTO_THE_LOSS), ["NAN202"])
    assert codes_at(found) == [(5, "NAN202")]
    assert "receives the gradient" in found[0].message
    assert lint(DISPATCHED.replace("PICK", pick).replace("USE", LOGGED), ["NAN202"]) == []
