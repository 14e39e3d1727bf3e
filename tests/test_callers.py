"""A scan of a folder reads the other files' calls of a helper that its own file never
calls: a gradient hazard in it is reported where one call's result reaches a
differentiated objective, and left to the hunt where none does."""

import json

from conftest import run_cli

HELPERS = """import tensorflow as tf


def pair_distance(a, b):
    return tf.sqrt(tf.reduce_sum(tf.square(a - b), axis=1))
"""
# A TF1 script: a contrastive hinge on the distance, minimized.
TRAIN = """import tensorflow as tf
from {module} import pair_distance

x1 = tf.compat.v1.placeholder(tf.float32, [None, 8])
x2 = tf.compat.v1.placeholder(tf.float32, [None, 8])
w = tf.Variable(tf.random.normal([8, 4]))
d = pair_distance(tf.matmul(x1, w), tf.matmul(x2, w))
{use}
step = tf.compat.v1.train.AdamOptimizer(1e-3).minimize(cost)
"""
INTO_LOSS = "cost = tf.reduce_mean(tf.maximum(0.0, 1.0 - d))"
LOGGED = ("tf.compat.v1.summary.scalar('distance', tf.reduce_mean(d))\n"
          "cost = tf.reduce_mean(tf.square(tf.matmul(x1, w)))")
# TF2 and Keras 3: a training step and a loss function of another file.
STEP = """import keras
import tensorflow as tf

from {module} import pair_distance


class Siamese(keras.Model):
    def train_step(self, data):
        (a, b), y = data
        with tf.GradientTape() as tape:
            d = pair_distance(self.tower(a), self.tower(b))
            loss = tf.reduce_mean(y * d + (1 - y) * tf.maximum(0.0, 1.0 - d))
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        return {{"loss": loss}}
"""
KERAS3_HELPERS = """from keras import ops


def pair_distance(a, b):
    return ops.sqrt(ops.sum(ops.square(a - b), axis=1))
"""
KERAS3_LOSS = """from keras import ops

from .geometry import pair_distance


def contrastive_loss(y_true, pair):
    d = pair_distance(pair[0], pair[1])
    return ops.mean(y_true * d + (1 - y_true) * ops.maximum(0.0, 1.0 - d))
"""


def _write(root, files):
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def _findings(cwd, *paths):
    result = run_cli("check", "--no-cache", "--preview", "--format", "json", *paths, cwd=cwd)
    assert result.returncode in (0, 1), result.stderr
    return [(f["path"].replace("\\", "/"), f["line"], f["code"], f["message"])
            for f in json.loads(result.stdout)["findings"]]


def test_a_call_into_the_loss_in_another_file_shows_the_gradient(tmp_path):
    _write(tmp_path, {"utils.py": HELPERS,
                      "train.py": TRAIN.format(module="utils", use=INTO_LOSS)})
    found = _findings(tmp_path, ".")
    assert [(path, line, code) for path, line, code, _ in found] == [("utils.py", 5, "NAN202")]
    assert "`pair_distance` is called at train.py:7" in found[0][3]


def test_a_call_whose_result_is_only_logged_leaves_it_to_the_hunt(tmp_path):
    _write(tmp_path, {"utils.py": HELPERS,
                      "train.py": TRAIN.format(module="utils", use=LOGGED)})
    assert _findings(tmp_path, ".") == []
    hunt = run_cli("suspects", "--no-cache", "--format", "json", ".", cwd=tmp_path)
    assert any(s["path"] == "utils.py" and s["line"] == 5
               for s in json.loads(hunt.stdout)["suspects"])


def test_the_helper_alone_has_no_gradient_shown(tmp_path):
    _write(tmp_path, {"utils.py": HELPERS,
                      "train.py": TRAIN.format(module="utils", use=INTO_LOSS)})
    assert _findings(tmp_path, "utils.py") == []


def test_only_an_import_python_would_resolve_to_the_file_counts(tmp_path):
    # a sibling project's `utils` is another module; a script below the helper's folder,
    # run from it, imports it
    _write(tmp_path, {"lib/utils.py": HELPERS,
                      "other/train.py": TRAIN.format(module="utils", use=INTO_LOSS)})
    assert _findings(tmp_path, ".") == []
    _write(tmp_path, {"lib/scripts/train.py": TRAIN.format(module="utils", use=INTO_LOSS)})
    assert [line for _, line, _, _ in _findings(tmp_path, ".")] == [5]
    # `pkg.utils` names the file by its package path, from the folder above `pkg`
    _write(tmp_path, {"pkg/utils.py": HELPERS,
                      "train2.py": TRAIN.format(module="pkg.utils", use=INTO_LOSS)})
    assert ("pkg/utils.py", 5) in [(path, line) for path, line, _, _ in
                                    _findings(tmp_path, ".")]


def test_a_training_step_and_a_keras3_loss_of_other_files(tmp_path):
    _write(tmp_path, {"utils.py": HELPERS, "model.py": STEP.format(module="utils")})
    assert [(p, c) for p, _, c, _ in _findings(tmp_path, ".")] == [("utils.py", "NAN202")]
    _write(tmp_path / "k3", {"siamese/__init__.py": "", "siamese/geometry.py": KERAS3_HELPERS,
                             "siamese/losses.py": KERAS3_LOSS})
    found = _findings(tmp_path / "k3", ".")
    assert [(p, c) for p, _, c, _ in found] == [("siamese/geometry.py", "NAN202")]
    assert "siamese/losses.py:7" in found[0][3]


def test_the_cache_keeps_the_hazard_pending(tmp_path):
    # the helper's result is cached with the hazard pending: a change of the caller alone
    # changes the verdict
    _write(tmp_path, {"utils.py": HELPERS,
                      "train.py": TRAIN.format(module="utils", use=INTO_LOSS)})

    def cached():
        result = run_cli("check", "--preview", "--format", "json", ".", cwd=tmp_path)
        return [f["line"] for f in json.loads(result.stdout)["findings"]]

    assert cached() == [5]
    _write(tmp_path, {"train.py": TRAIN.format(module="utils", use=LOGGED)})
    assert cached() == []


def test_a_name_imported_through_a_package_s_reexports(tmp_path):
    # `import geometry` then `geometry.pair_distance`: the package's `__init__` imports
    # every name of its `ops` module, which defines the function
    _write(tmp_path, {"geometry/__init__.py": "from geometry.ops import *\n",
                      "geometry/ops.py": HELPERS,
                      "train.py": TRAIN.format(module="utils", use=INTO_LOSS).replace(
                          "from utils import pair_distance", "import geometry").replace(
                          "d = pair_distance(", "d = geometry.pair_distance(")})
    assert [(p, line) for p, line, _, _ in _findings(tmp_path, ".")] == [("geometry/ops.py", 5)]
    # a relative import of one name
    _write(tmp_path, {"geometry/__init__.py": "from .ops import pair_distance, other\n"})
    assert [(p, line) for p, line, _, _ in _findings(tmp_path, ".")] == [("geometry/ops.py", 5)]
    # an `__init__` that imports other names does not re-export it
    _write(tmp_path, {"geometry/__init__.py": "from .ops import other\n"})
    assert _findings(tmp_path, ".") == []


def _hunt(cwd, *paths):
    result = run_cli("suspects", "--no-cache", "--format", "json", *paths, cwd=cwd)
    assert result.returncode == 0, result.stderr
    return [s for s in json.loads(result.stdout)["suspects"] if s["path"] == "utils.py"]


def test_the_hunt_of_a_folder_ranks_the_helper_by_its_callers(tmp_path):
    _write(tmp_path, {"utils.py": HELPERS,
                      "train.py": TRAIN.format(module="utils", use=INTO_LOSS)})
    alone, = _hunt(tmp_path, "utils.py")
    assert "reach unknown" in alone["why"] and "NAN202's evidence" in alone["why"]
    found, = _hunt(tmp_path, ".")
    assert found["why"].startswith("check's NAN202")
    assert "reaches the loss (`pair_distance` is called at train.py:7)" in found["why"]
    assert found["score"] == alone["score"] + 2.0
    # a caller that only logs the result changes nothing
    _write(tmp_path, {"train.py": TRAIN.format(module="utils", use=LOGGED)})
    assert _hunt(tmp_path, ".") == [alone]


def test_a_result_goes_on_through_the_callers_of_the_calling_function(tmp_path):
    # utils.pair_distance <- model.margin (called by no one in model.py) <- train.py's loss
    model = ("from utils import pair_distance\n\n\n"
             "def margin(a, b):\n    return 1.0 - pair_distance(a, b)\n")
    train = TRAIN.format(module="utils", use="cost = tf.reduce_mean(tf.maximum(0.0, m))").replace(
        "from utils import pair_distance", "from model import margin").replace(
        "d = pair_distance(", "m = margin(")
    _write(tmp_path, {"utils.py": HELPERS, "model.py": model, "train.py": train})
    found = _findings(tmp_path, ".")
    assert [(p, line) for p, line, _, _ in found] == [("utils.py", 5)]
    assert "`pair_distance` is called at model.py:5" in found[0][3]
    # where the last caller only logs the margin, nothing is shown
    _write(tmp_path, {"train.py": train.replace(
        "cost = tf.reduce_mean(tf.maximum(0.0, m))",
        "tf.compat.v1.summary.scalar('m', tf.reduce_mean(m))\n"
        "cost = tf.reduce_mean(tf.square(tf.matmul(x1, w)))")})
    assert _findings(tmp_path, ".") == []
