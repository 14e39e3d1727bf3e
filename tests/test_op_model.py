"""The op table against the installed TensorFlow, Keras and numpy.

Completeness: every public function of the namespaces old and new code calls (``tf`` and
``tf.compat.v1`` with their ``math``, ``nn``, ``linalg``, ``random``, ``sparse``, ``ragged``,
``image`` and ``initializers``; TF1's ``losses``; the methods of ``tf.SparseTensor`` and ``tf.RaggedTensor``;
the Keras backend, Keras 3's and the legacy one, which holds the ``K.*`` functions TF1-era
code calls; ``keras.ops``; ``keras.activations``; ``keras.initializers``; numpy,
``numpy.linalg`` and ``numpy.random``) is either an op of the table or declared not numeric.
TF1-only modules that TensorFlow 2 no longer installs (``tf.contrib.slim``,
``tf.contrib.layers``, ``tf.layers``) are checked against the names they published, listed
here.

Sparse and ragged ops are checked like their dense counterparts, on a ``SparseTensor`` or a
``RaggedTensor``: each modeled one has a call below, and what its transfer claims (its range,
whole numbers, elements of its input, a sum of the sign of its terms, an average within its
input's range) must hold of what it returns. TF1's losses that claim a sign are called with
labels of their kind.

Properties: every op with a fixed form (``Op.form``) is run under TensorFlow (numpy's under
numpy) on the extremes (0, +-1, +-88, +-1e30, the subnormal 1e-40) and random values, within
its domain (a constructor or a random draw, with a size). Its outputs must lie in its
claimed range and be defined (not NaN); an op that claims a zero (``Op.zero``) must reach
exactly 0 somewhere, one that claims to overflow must reach an infinity, one that does not
must stay finite; at each claimed singular point of its gradient, ``tf.GradientTape`` must
give inf or NaN. One loop per form: a new member
of a family is checked without new test code.
"""

import os
import types
import warnings
from typing import Iterator, List, Tuple

import numpy as np
import pytest

from nanlint import optable

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
tf = pytest.importorskip("tensorflow")
import keras  # noqa: E402  (after TensorFlow, whose Keras it is)
from keras.src.legacy import backend as legacy_backend  # noqa: E402

# The installed modules whose public functions the table must cover, by namespace.
COVERED = {
    "tf": (tf, tf.compat.v1), "tf.math": (tf.math, tf.compat.v1.math),
    "tf.nn": (tf.nn, tf.compat.v1.nn), "tf.linalg": (tf.linalg, tf.compat.v1.linalg),
    "tf.random": (tf.random, tf.compat.v1.random), "K": (legacy_backend, keras.backend),
    "ops": (keras.ops,), "activations": (keras.activations,), "np": (np,),
    "np.linalg": (np.linalg,), "np.random": (np.random,),
    "tf.sparse": (tf.sparse, tf.compat.v1.sparse), "tf.ragged": (tf.ragged, tf.compat.v1.ragged),
    "tf.SparseTensor": (tf.SparseTensor,), "tf.RaggedTensor": (tf.RaggedTensor,),
    "tf.image": (tf.image, tf.compat.v1.image),
    "tf.initializers": (tf.initializers, tf.compat.v1.initializers),
    "keras.initializers": (keras.initializers,), "tf.losses": (tf.compat.v1.losses,),
    "losses": (keras.losses,), "tf.signal": (tf.signal,),
    "tf.distributions": (tf.compat.v1.distributions,),
}


def public_functions(module: types.ModuleType) -> Iterator[str]:
    for name in dir(module):
        if not name.startswith("_") and not isinstance(
                getattr(module, name, None), types.ModuleType) and callable(
                getattr(module, name, None)):
            yield name


def unmodeled(spellings) -> List[str]:
    """The spellings that are neither an op of the table nor declared not numeric."""
    return sorted(s for s in spellings
                  if s not in optable.TABLE.by_spelling and not optable.declared(s))


def installed_spellings() -> List[str]:
    return sorted({f"{namespace}.{name}" for namespace, modules in COVERED.items()
                   for module in modules for name in public_functions(module)})


def test_every_public_function_is_modeled_or_declared():
    spellings = installed_spellings()
    assert len(spellings) > 1500  # the enumeration itself works
    missing = unmodeled(spellings)
    assert not missing, f"{len(missing)} functions neither modeled nor declared: {missing}"


def test_a_made_up_name_is_reported():
    assert unmodeled(["tf.math.log", "tf.summary.scalar", "tf.math.frobnicate",
                      "np.frobnicate"]) == ["np.frobnicate", "tf.math.frobnicate"]


# -- properties under TensorFlow --------------------------------------------------------------
EXTREMES = [0.0, 1.0, -1.0, 88.0, -88.0, 89.0, -89.0, 1e30, -1e30, 1e-40, -1e-40, 0.5,
            -0.5, 2.0, -2.0, 3.0, -3.0, 10.0, -10.0, 100.0, -100.0]
RNG = np.random.default_rng(0)
RANDOM = np.concatenate([RNG.normal(0.0, 3.0, 200), RNG.uniform(-100.0, 100.0, 100)])
SECOND = 0.5  # the other argument of a binary op at a gradient point: a power below 1
# float32 rounding of a bound (pi is 3.1415927 in float32, above math.pi)
TOLERANCE = 1e-6


def function_of(spelling: str):
    """The installed function a spelling names, or None (a TF1 name missing in TF2 is
    looked for in tf.compat.v1)."""
    namespace, name = spelling.rsplit(".", 1)
    for module in COVERED.get(namespace, ()):
        if hasattr(module, name):
            return getattr(module, name)
    return None


def samples(op: optable.Op) -> np.ndarray:
    lo, hi = op.domain
    values = np.array(EXTREMES + list(RANDOM) + [v for v in (lo, hi) if np.isfinite(v)])
    if np.isfinite(lo) or np.isfinite(hi):  # random points inside a bounded domain too
        start, stop = max(lo, -100.0), min(hi, 100.0)
        values = np.concatenate([values, RNG.uniform(start, stop, 300)])
    return values[(values >= lo) & (values <= hi)].astype(np.float32)


def checked() -> List[Tuple[optable.Op, str]]:
    cases = [(op, spelling) for op in optable.TABLE.by_name.values() if op.form
             for spelling in op.spellings if function_of(spelling) is not None]
    return sorted(cases, key=lambda case: case[1])


def test_every_op_with_a_form_can_be_called():
    called = {op.name for op, _ in checked()}
    assert not [op.name for op in optable.TABLE.by_name.values()
                if op.form and op.name not in called]


def run(op: optable.Op, spelling: str, x: np.ndarray) -> np.ndarray:
    function = function_of(spelling)
    numpy = spelling.startswith("np.")
    # one row (the legacy backend's softmax wants a batch), or every pair for a binary op
    arguments = [x[None, :]] if op.form != "binary" else [np.repeat(x, len(x)),
                                                         np.tile(x, len(x))]
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # np.random.random_integers
        if op.form == "shape":  # a constructor or a draw of size 64 (or a 64 x 64 matrix)
            try:
                results = [function(64)]
            except (TypeError, ValueError, tf.errors.InvalidArgumentError):
                results = [function([64])]  # a shape given as a list
        elif op.form == "reduce":  # a reduction of each half, and of the whole vector
            parts = [x, x[: len(x) // 2], x[len(x) // 2:], np.zeros(3, np.float32)]
            results = [function(p if numpy else tf.constant(p)) for p in parts]
        else:
            results = [function(*(arguments if numpy else map(tf.constant, arguments)))]
    results = [tf.sparse.to_dense(r) if isinstance(r, tf.SparseTensor) else r
               for r in results]  # tf.sparse.eye: the matrix it stands for
    return np.concatenate([np.ravel(np.asarray(r, dtype=np.float64)) for r in results])


@pytest.mark.parametrize("op, spelling", checked(), ids=lambda case: getattr(case, "name", case))
def test_the_claimed_range(op, spelling):
    x = samples(op)
    out = run(op, spelling, x)
    # defined inside its domain, except at its singular points (the poles of digamma)
    defined = out[~np.isin(x, [point_of(p)[0] for p in op.gradient])] if (
        out.shape == x.shape) else out
    assert not np.isnan(defined).any(), f"{spelling} is NaN inside its domain {op.domain}"
    finite = out[np.isfinite(out)]
    slack = TOLERANCE * max(1.0, abs(op.lo) if np.isfinite(op.lo) else 1.0)
    assert (finite >= op.lo - slack).all(), f"{spelling}: {finite.min()} < {op.lo}"
    slack = TOLERANCE * max(1.0, abs(op.hi) if np.isfinite(op.hi) else 1.0)
    assert (finite <= op.hi + slack).all(), f"{spelling}: {finite.max()} > {op.hi}"
    infinite = out[np.isinf(out)]
    assert (infinite >= op.lo).all() and (infinite <= op.hi).all()
    assert np.isinf(out).any() == op.overflows, (
        f"{spelling} {'never overflows' if op.overflows else 'overflows'}")
    if op.zero is not None:
        assert (out == 0).any(), f"{spelling} never reaches exactly 0"


GRADIENT_POINTS = [(op, spelling, point) for op, spelling in checked()
                   for point in op.gradient if not spelling.startswith("np.")]


def point_of(text):
    """A claimed gradient point: "-1" (the other argument of a binary op at ``SECOND``), or
    "(0, 0)", both arguments."""
    parts = [float(part) for part in text.strip("()").split(",")]
    return parts[0], parts[1] if len(parts) > 1 else SECOND


@pytest.mark.parametrize("op, spelling, point", GRADIENT_POINTS,
                         ids=lambda case: getattr(case, "name", case))
def test_the_gradient_is_singular_at_the_claimed_points(op, spelling, point):
    function = function_of(spelling)
    first, second = point_of(point)
    x = tf.Variable(np.full(3 if op.form == "reduce" else 1, first, np.float32))
    with tf.GradientTape() as tape:
        y = function(x, second) if op.form == "binary" else function(x)
    gradient = tape.gradient(y, x).numpy()
    assert not np.isfinite(gradient).all(), f"{spelling}'s gradient at {point}: {gradient}"


def test_numpy_ops_claim_no_gradient():
    assert not [op.name for op in optable.TABLE.by_name.values()
                if op.name.startswith("np.") and op.gradient]


def test_numpy_spellings_of_table_ops_are_arrays():
    """`np.log` is the table's log (its range and zero are checked above, under numpy), looked
    up as an array op: its result carries no gradient."""
    for spelling, name in optable.NUMPY_SAME.items():
        assert spelling in optable.TABLE.by_name[name].spellings
        op = optable.lookup("numpy" + spelling[2:])
        assert op is not None and op.name == name and op.array, spelling
    assert not optable.lookup("tensorflow.math.log").array


def test_a_wrong_claim_fails():
    """The range check can fail: sin claimed in [0, 1] is caught."""
    sin = optable.TABLE.by_name["sin"]
    wrong = optable.replace(sin, lo=0.0)
    with pytest.raises(AssertionError):
        test_the_claimed_range(wrong, "tf.math.sin")




def test_tensorflow_internal_paths_are_their_public_functions():
    """`from tensorflow.python.ops import math_ops` then `math_ops.log(x)` is `tf.math.log`:
    TF publishes its internal modules' functions under their own names."""
    log = optable.spelling_of("tensorflow.python.ops.math_ops.log")
    assert optable.TABLE.by_spelling[log].name == "log"
    assert optable.spelling_of("tensorflow.python.ops.array_ops.identity") == "tf.identity"
    assert optable.spelling_of(
        "tensorflow.python.framework.ops.control_dependencies") == "tf.control_dependencies"
    assert optable.spelling_of("tensorflow.python.ops.math_ops.frobnicate") == (
        "tf.python.ops.math_ops.frobnicate")  # no public function of that name: itself
    assert optable.spelling_of("tensorflow.python.keras.layers.Dense") == "layers.Dense"


# -- TF1-only modules ---------------------------------------------------------------------------
# The names TF1's `tf.layers` (TF 2 installs it only with the separate tf_keras) and
# `tf.contrib.layers` / `tf.contrib.slim` (gone in TF 2; `tf_slim` keeps slim) published:
# their layers, arg scopes, initializers, regularizers, summaries and variables.
_CONTRIB_LAYERS = (
    "avg_pool2d avg_pool3d batch_norm bias_add conv1d conv2d conv3d conv2d_in_plane "
    "conv2d_transpose conv3d_transpose convolution convolution1d convolution2d "
    "convolution2d_in_plane convolution2d_transpose convolution3d convolution3d_transpose "
    "dense_to_sparse dropout elu flatten fully_connected GDN gdn images_to_sequence "
    "layer_norm linear pool max_pool2d max_pool3d one_hot_encoding relu relu6 repeat "
    "scale_gradient separable_conv2d separable_convolution2d sequence_to_images softmax "
    "spatial_softmax stack unit_norm legacy_fully_connected legacy_linear legacy_relu maxout "
    "group_norm instance_norm xavier_initializer xavier_initializer_conv2d "
    "variance_scaling_initializer l1_regularizer l2_regularizer l1_l2_regularizer "
    "sum_regularizer apply_regularization summarize_tensor summarize_activation "
    "summarize_tensors summarize_collection summarize_variables summarize_weights "
    "summarize_biases summarize_activations rev_block RevBlock recompute_grad")
TF1_ONLY = {
    # TensorFlow before 1.0: its summary names
    "tf": "audio_summary histogram_summary image_summary merge_all_summaries merge_summary "
          "scalar_summary",
    "tf.layers": (
        "AveragePooling1D AveragePooling2D AveragePooling3D BatchNormalization Conv1D Conv2D "
        "Conv2DTranspose Conv3D Conv3DTranspose Dense Dropout Flatten InputSpec Layer "
        "MaxPooling1D MaxPooling2D MaxPooling3D SeparableConv1D SeparableConv2D "
        "average_pooling1d average_pooling2d average_pooling3d batch_normalization conv1d "
        "conv2d conv2d_transpose conv3d conv3d_transpose dense dropout flatten max_pooling1d "
        "max_pooling2d max_pooling3d separable_conv1d separable_conv2d"),
    "tf.contrib.layers": _CONTRIB_LAYERS + " optimize_loss",
    "tf.contrib.slim.layers": _CONTRIB_LAYERS,
    "tf.contrib.slim": _CONTRIB_LAYERS + (
        " arg_scope add_arg_scope current_arg_scope has_arg_scope arg_scoped_arguments "
        "arg_scope_func_key add_model_variable assert_global_step assert_or_get_global_step "
        "assign_from_checkpoint assign_from_checkpoint_fn assign_from_values "
        "assign_from_values_fn create_global_step filter_variables get_global_step "
        "get_or_create_global_step get_local_variables get_model_variables "
        "get_trainable_variables get_unique_variable get_variables_by_name "
        "get_variables_by_suffix get_variable_full_name get_variables_to_restore "
        "get_variables global_variable local_variable model_variable variable "
        "VariableDeviceChooser learning.train evaluation.evaluation_loop "
        "evaluation.evaluate_once queues.QueueRunners summaries.add_scalar_summary "
        "metrics.streaming_accuracy model_analyzer.analyze_vars dataset.Dataset "
        "tfexample_decoder.TFExampleDecoder tfexample_decoder.Tensor "
        "dataset_data_provider.DatasetDataProvider parallel_reader.parallel_read "
        "prefetch_queue.prefetch_queue data_decoder.DataDecoder data_provider.DataProvider "
        "losses.softmax_cross_entropy losses.sigmoid_cross_entropy "
        "losses.sparse_softmax_cross_entropy losses.mean_squared_error "
        "losses.absolute_difference losses.get_total_loss losses.get_regularization_losses "
        "losses.add_loss"),
}


def test_tf1_only_names_are_modeled_or_declared():
    spellings = [f"{namespace}.{name}" for namespace, names in TF1_ONLY.items()
                 for name in names.split()]
    missing = unmodeled(spellings)
    assert not missing, f"{len(missing)} TF1 names neither modeled nor declared: {missing}"


@pytest.mark.parametrize("qualified", [
    "tensorflow.sparse.reduce_sum", "tensorflow.compat.v1.sparse_tensor_dense_matmul",
    "tensorflow.ragged.constant", "tensorflow.RaggedTensor.from_row_lengths",
    "tensorflow.contrib.slim.conv2d", "tf_slim.arg_scope", "tf_slim.layers.max_pool2d",
    "tensorflow.contrib.slim.l2_regularizer", "tensorflow.contrib.layers.flatten",
    "tensorflow.compat.v1.layers.flatten", "tensorflow.compat.v1.layers.conv2d_transpose",
    "tensorflow.initializers.glorot_uniform", "tensorflow.keras.initializers.he_normal",
    "tensorflow.compat.v1.glorot_uniform_initializer", "tensorflow.compat.v1.Summary.Value",
    "tensorflow.compat.v1.summary.FileWriter", "tensorflow.compat.v1.to_float",
    "tensorflow.compat.v1.Print", "tensorflow.compat.v1.image.per_image_standardization",
    "tensorflow.compat.v1.train.shuffle_batch", "tensorflow.compat.v1.random_normal",
    "tensorflow.compat.v1.nn.rnn_cell.LSTMCell", "tensorflow.compat.v1.losses.huber_loss",
    "tensorflow.contrib.summary.scalar", "tensorflow.contrib.tensorboard.plugins.projector",
    "numpy.product", "numpy.cumproduct",  # numpy 1's names of prod and cumprod
    "numpy.int", "numpy.float", "numpy.asscalar",  # removed in numpy 1.23 and 1.24
    # Keras's backend under a TF1 Session (not in Keras 3)
    "tensorflow.keras.backend.set_learning_phase", "keras.backend.get_session",
    "keras.backend.in_train_phase", "keras.backend.identity", "keras.backend.function",
    "keras.backend.local_conv1d", "tensorflow.contrib.distributions.MultivariateNormalDiag",
    "tensorflow.contrib.slim.utils.collect_named_outputs"])
def test_old_and_sparse_spellings_through_their_imports(qualified):
    assert not unmodeled([optable.spelling_of(qualified)])


# -- sparse and ragged ops against their claims -------------------------------------------------
def _sparse(values: np.ndarray) -> "tf.SparseTensor":
    """A 4 x n SparseTensor holding ``values`` at every other position (implicit zeros
    between them)."""
    n = len(values)
    indices = [[i % 4, 2 * (i // 4) + (i % 2)] for i in range(n)]
    return tf.sparse.reorder(tf.SparseTensor(indices, values, [4, 2 * (n // 4) + 2]))


def _ragged(values: np.ndarray) -> "tf.RaggedTensor":
    """Rows of 0, 1, 2, 3, ... of ``values`` (the first row empty), then the rest."""
    lengths, left = [], len(values)
    while left > 0:
        lengths.append(min(len(lengths), left))
        left -= lengths[-1]
    return tf.RaggedTensor.from_row_lengths(values, lengths)


def _segments(n: int) -> np.ndarray:
    return np.sort(np.arange(n) % max(n // 3, 1)).astype(np.int32)


SPARSE_AND_RAGGED_CALLS = {
    # sparse: structure
    "tf.sparse.reorder": lambda x: tf.sparse.reorder(_sparse(x)),
    "tf.sparse.reshape": lambda x: tf.sparse.reshape(_sparse(x), [-1]),
    "tf.sparse.transpose": lambda x: tf.sparse.transpose(_sparse(x)),
    "tf.sparse.expand_dims": lambda x: tf.sparse.expand_dims(_sparse(x), 0),
    "tf.sparse.slice": lambda x: tf.sparse.slice(_sparse(x), [1, 0], [2, 4]),
    "tf.sparse.split": lambda x: tf.sparse.split(sp_input=_sparse(x), num_split=2, axis=0)[0],
    "tf.sparse.retain": lambda x: tf.sparse.retain(_sparse(x), np.arange(len(x)) % 2 == 0),
    "tf.sparse.reset_shape": lambda x: tf.sparse.reset_shape(_sparse(x)),
    "tf.sparse.from_dense": lambda x: tf.sparse.from_dense(x),
    "tf.sparse.reduce_max": lambda x: tf.sparse.reduce_max(_sparse(x), axis=1),
    "tf.sparse.reduce_max_sparse": lambda x: tf.compat.v1.sparse.reduce_max_sparse(
        _sparse(x), 1),
    "tf.sparse.concat": lambda x: tf.sparse.concat(0, [_sparse(x), _sparse(x[::-1])]),
    "tf.sparse.to_dense": lambda x: tf.sparse.to_dense(_sparse(x)),
    # sparse: sums, averages, products with a dense matrix, probabilities
    "tf.sparse.reduce_sum": lambda x: tf.sparse.reduce_sum(_sparse(x), axis=1),
    "tf.sparse.reduce_sum_sparse": lambda x: tf.compat.v1.sparse.reduce_sum_sparse(
        _sparse(x), 0),
    "tf.sparse.add": lambda x: tf.sparse.add(_sparse(x), _sparse(x[::-1])),
    "tf.sparse.segment_sum": lambda x: tf.sparse.segment_sum(
        x, np.arange(len(x)), _segments(len(x))),
    "tf.sparse.segment_sqrt_n": lambda x: tf.sparse.segment_sqrt_n(
        x, np.arange(len(x)), _segments(len(x))),
    "tf.sparse.segment_mean": lambda x: tf.sparse.segment_mean(
        x, np.arange(len(x)), _segments(len(x))),
    "tf.sparse.sparse_dense_matmul": lambda x: tf.sparse.sparse_dense_matmul(
        _sparse(x), np.abs(x[: 2 * (len(x) // 4) + 2, None])),
    "tf.sparse.matmul": lambda x: tf.compat.v1.sparse.matmul(
        _sparse(x), np.abs(x[: 2 * (len(x) // 4) + 2, None])),
    "tf.sparse.softmax": lambda x: tf.sparse.softmax(_sparse(x)),
    "tf.sparse.eye": lambda x: tf.sparse.eye(len(x) % 7 + 2),
    "tf.sparse.to_indicator": lambda x: tf.sparse.to_indicator(
        tf.SparseTensor([[0, 0], [1, 0]], tf.constant([1, 3], tf.int64), [2, 1]), 4),
    "tf.sparse.bincount": lambda x: tf.sparse.bincount(
        (np.abs(x) % 5).astype(np.int32)),
    "tf.sparse.map_values": lambda x: tf.sparse.map_values(tf.nn.relu, _sparse(x)),
    "tf.sparse.maximum": lambda x: tf.sparse.maximum(_sparse(x), _sparse(x[::-1])),
    "tf.sparse.minimum": lambda x: tf.sparse.minimum(_sparse(x), _sparse(x[::-1])),
    "tf.sparse.sampled_addmm": lambda x: tf.sparse.sampled_addmm(  # (indices, values, shape)
        [[0, 0], [1, 1]], x[:2], [2, 2], x[:4].reshape(2, 2), x[4:8].reshape(2, 2))[1],
    "tf.sparse_to_dense": lambda x: tf.compat.v1.sparse_to_dense(
        [[i] for i in range(len(x))], [len(x) + 2], x),
    # ragged
    "tf.ragged.constant": lambda x: tf.ragged.constant([list(x[:3]), [], list(x[3:])]),
    "tf.ragged.boolean_mask": lambda x: tf.ragged.boolean_mask(_ragged(x), tf.greater(
        _ragged(x), 0.0)),
    "tf.ragged.stack": lambda x: tf.ragged.stack([_ragged(x), _ragged(x[::-1])]),
    "tf.ragged.stack_dynamic_partitions": lambda x: tf.ragged.stack_dynamic_partitions(
        x, np.arange(len(x)) % 3, 3),
    "tf.ragged.map_flat_values": lambda x: tf.ragged.map_flat_values(tf.nn.relu, _ragged(x)),
    "tf.ragged.range": lambda x: tf.ragged.range([0, 1, 3], [4, 2, 5]),
    "tf.ragged.row_splits_to_segment_ids": lambda x: tf.ragged.row_splits_to_segment_ids(
        _ragged(x).row_splits),
    "tf.ragged.segment_ids_to_row_splits": lambda x: tf.ragged.segment_ids_to_row_splits(
        _segments(len(x))),
    "tf.RaggedTensor.from_row_lengths": lambda x: _ragged(x),
    "tf.RaggedTensor.from_row_splits": lambda x: tf.RaggedTensor.from_row_splits(
        x, _ragged(x).row_splits),
    "tf.RaggedTensor.from_row_limits": lambda x: tf.RaggedTensor.from_row_limits(
        x, _ragged(x).row_limits()),
    "tf.RaggedTensor.from_row_starts": lambda x: tf.RaggedTensor.from_row_starts(
        x, _ragged(x).row_starts()),
    "tf.RaggedTensor.from_value_rowids": lambda x: tf.RaggedTensor.from_value_rowids(
        x, _ragged(x).value_rowids()),
    "tf.RaggedTensor.from_uniform_row_length": lambda x: (
        tf.RaggedTensor.from_uniform_row_length(x[: len(x) // 2 * 2], 2)),
    "tf.RaggedTensor.from_nested_row_lengths": lambda x: (
        tf.RaggedTensor.from_nested_row_lengths(x, [_ragged(x).row_lengths()])),
    "tf.RaggedTensor.from_nested_row_splits": lambda x: (
        tf.RaggedTensor.from_nested_row_splits(x, [_ragged(x).row_splits])),
    "tf.RaggedTensor.from_nested_value_rowids": lambda x: (
        tf.RaggedTensor.from_nested_value_rowids(x, [_ragged(x).value_rowids()])),
    "tf.RaggedTensor.from_tensor": lambda x: tf.RaggedTensor.from_tensor(
        x[: len(x) // 4 * 4].reshape(4, -1)),
    "tf.RaggedTensor.from_sparse": lambda x: tf.RaggedTensor.from_sparse(
        _ragged(x).to_sparse()),
    "tf.RaggedTensor.to_tensor": lambda x: tf.RaggedTensor.to_tensor(_ragged(x)),
    "tf.RaggedTensor.to_sparse": lambda x: tf.RaggedTensor.to_sparse(_ragged(x)),
    "tf.RaggedTensor.merge_dims": lambda x: tf.RaggedTensor.merge_dims(_ragged(x), 0, 1),
    "tf.RaggedTensor.row_lengths": lambda x: tf.RaggedTensor.row_lengths(_ragged(x)),
    "tf.RaggedTensor.nested_row_lengths": lambda x: tf.RaggedTensor.nested_row_lengths(
        _ragged(x))[0],
}
# The TF1 spellings of the same ops (`tf.sparse_reduce_sum`): called as their TF 2 name.
TF1_SPARSE = {f"tf.sparse_{name}": f"tf.sparse.{name}" for name in (
    "add", "concat", "maximum", "minimum", "reduce_max", "reduce_max_sparse", "reduce_sum",
    "reduce_sum_sparse", "reorder", "reset_shape", "reshape", "retain", "segment_mean",
    "segment_sqrt_n", "segment_sum", "slice", "softmax", "split", "to_indicator",
    "transpose")}
TF1_SPARSE.update({"tf.sparse_tensor_to_dense": "tf.sparse.to_dense",
                   "tf.sparse_tensor_dense_matmul": "tf.sparse.sparse_dense_matmul",
                   "tf.sparse_matmul": None})  # a dense matmul, despite its name


def _sparse_or_ragged(spelling: str) -> bool:
    return spelling.startswith(("tf.sparse.", "tf.ragged.", "tf.RaggedTensor.",
                                "tf.SparseTensor.", "tf.sparse_"))


def _modeled_sparse_and_ragged() -> List[Tuple[optable.Op, str]]:
    return sorted(((op, s) for s, op in optable.TABLE.by_spelling.items()
                   if _sparse_or_ragged(s) and TF1_SPARSE.get(s, "") is not None),
                  key=lambda case: case[1])


def _held(result) -> np.ndarray:
    """The elements a result holds: a SparseTensor's values, a RaggedTensor's flat values."""
    if isinstance(result, tf.SparseTensor):
        result = result.values
    elif isinstance(result, tf.RaggedTensor):
        result = result.flat_values
    return np.ravel(np.asarray(result, dtype=np.float64))


def test_every_modeled_sparse_or_ragged_op_is_called():
    uncalled = [s for _, s in _modeled_sparse_and_ragged()
                if TF1_SPARSE.get(s, s) not in SPARSE_AND_RAGGED_CALLS]
    assert not uncalled, f"modeled, but no call checks their claims: {uncalled}"


SIGNED_INPUTS = {
    "mixed": RANDOM[:40].astype(np.float32),
    "nonnegative": np.abs(RANDOM[40:80]).astype(np.float32),
    "nonpositive": -np.abs(RANDOM[80:120]).astype(np.float32),
    "with zeros": np.where(np.arange(40) % 3 == 0, 0.0, RANDOM[120:160]).astype(np.float32),
}


@pytest.mark.parametrize("op, spelling", _modeled_sparse_and_ragged(),
                         ids=lambda case: getattr(case, "name", case))
def test_sparse_and_ragged_ops_keep_their_claims(op, spelling):
    call = SPARSE_AND_RAGGED_CALLS[TF1_SPARSE.get(spelling, spelling)]
    for kind, x in SIGNED_INPUTS.items():
        out = _held(call(x))
        assert not np.isnan(out).any(), f"{spelling} ({kind}): NaN"
        assert (out >= op.lo).all() and (out <= op.hi).all(), f"{spelling} ({kind}): range"
        if op.integral or op.transfer == "bool":
            assert (out == np.round(out)).all(), f"{spelling} ({kind}): not whole"
        if op.transfer == "bool":
            assert np.isin(out, [0.0, 1.0]).all(), f"{spelling} ({kind}): not true or false"
        if op.transfer in ("like", "join"):  # (some of) the input's elements
            assert np.isin(out, x).all(), f"{spelling} ({kind}): not its input's"
        if op.transfer == "diag":  # the input's elements and zeros
            assert np.isin(out, np.append(x, 0.0)).all(), f"{spelling} ({kind}): not its input's"
        if op.transfer in ("sum", "add", "reduce", "matmul") and kind in (
                "nonnegative", "nonpositive"):
            sign = 1.0 if kind == "nonnegative" else -1.0
            assert (sign * out >= 0).all(), f"{spelling} ({kind}): not of its terms' sign"
        if op.transfer == "reduce":  # an average: within the input's range
            assert (out >= x.min() - 1e-4 * abs(x.min())).all() and (
                out <= x.max() + 1e-4 * abs(x.max())).all(), f"{spelling} ({kind}): average"
        if op.transfer == "map":  # the function's results on the elements: relu here
            assert np.isin(out, np.maximum(x, 0.0)).all(), f"{spelling} ({kind}): not mapped"
    if op.negative is not None:  # claims negative outputs: some input gives one
        assert (_held(call(-SIGNED_INPUTS["nonnegative"])) < 0).any() or (
            _held(call(SIGNED_INPUTS["mixed"])) < 0).any(), f"{spelling}: never negative"


# -- TF1's losses: not negative ---------------------------------------------------------------
# Each takes labels of its own kind (0/1, one-hot, class indices) and predictions or logits.
_LABELS = (RNG.uniform(size=(64, 4)) > 0.5).astype(np.float32)
_PREDICTIONS = RNG.normal(0.0, 3.0, (64, 4)).astype(np.float32)
TF1_LOSS_CALLS = {
    "mean_squared_error": lambda f: f(_LABELS, _PREDICTIONS),
    "absolute_difference": lambda f: f(_LABELS, _PREDICTIONS),
    "huber_loss": lambda f: f(_LABELS, _PREDICTIONS),
    "mean_pairwise_squared_error": lambda f: f(_LABELS, _PREDICTIONS),
    "hinge_loss": lambda f: f(_LABELS, _PREDICTIONS),
    "sigmoid_cross_entropy": lambda f: f(_LABELS, _PREDICTIONS),
    "softmax_cross_entropy": lambda f: f(np.eye(4, dtype=np.float32)[np.arange(64) % 4],
                                         _PREDICTIONS),
    "sparse_softmax_cross_entropy": lambda f: f(np.arange(64) % 4, _PREDICTIONS),
}


def _tf1_losses_claiming_a_sign() -> List[Tuple[optable.Op, str]]:
    return sorted(((op, s) for s, op in optable.TABLE.by_spelling.items()
                   if s.startswith("tf.losses.") and op.lo > -np.inf),
                  key=lambda case: case[1])


def test_every_tf1_loss_with_a_sign_is_called():
    assert not [s for _, s in _tf1_losses_claiming_a_sign()
                if s.rsplit(".", 1)[1] not in TF1_LOSS_CALLS]


@pytest.mark.parametrize("op, spelling", _tf1_losses_claiming_a_sign(),
                         ids=lambda case: getattr(case, "name", case))
def test_tf1_losses_keep_their_sign(op, spelling):
    function = function_of(spelling)

    def per_element(*arguments):  # a loss per element where the loss can give one
        try:
            return function(*arguments, reduction=tf.compat.v1.losses.Reduction.NONE)
        except TypeError:  # mean_pairwise_squared_error: one value per batch
            return function(*arguments)
    values = np.ravel(np.asarray(TF1_LOSS_CALLS[spelling.rsplit(".", 1)[1]](per_element),
                                 dtype=np.float64))
    assert np.isfinite(values).all() and (values >= op.lo).all(), spelling


# -- Keras' losses ----------------------------------------------------------------------------
def test_tf2_losses_are_keras_losses():
    """TF2's ``tf.losses`` is Keras': each of its names resolves to a known spelling, and
    a name TF1 and Keras share keeps TF1's spelling."""
    names = sorted(public_functions(tf.losses))
    assert "BinaryCrossentropy" in names  # TF2's module, not TF1's
    spellings = {name: optable.spelling_of(f"tensorflow.losses.{name}") for name in names}
    assert not unmodeled(spellings.values()), spellings
    assert spellings["BinaryCrossentropy"] == "losses.BinaryCrossentropy"
    assert optable.spelling_of("tensorflow.losses.huber_loss") == "tf.losses.huber_loss"
    assert optable.spelling_of("tensorflow.losses.frobnicate") == "tf.losses.frobnicate"


def _keras_losses_claiming_a_sign() -> List[Tuple[optable.Op, str]]:
    return sorted(((op, s) for s, op in optable.TABLE.by_spelling.items()
                   if s.startswith("losses.") and op.lo > -np.inf and op.transfer == "range"
                   and function_of(s) is not None and not isinstance(function_of(s), type)),
                  key=lambda case: case[1])


def _keras_loss_values(spelling: str, predictions: np.ndarray) -> np.ndarray:
    """One loss per sample, of labels as the loss takes them (0/1, one-hot, class indices,
    label sequences for CTC) and ``predictions``."""
    function, name = function_of(spelling), spelling.rsplit(".", 1)[1]
    classes = np.arange(64) % 4
    if name == "ctc":
        labels = np.tile(np.array([[1, 2, 1]], dtype=np.int32), (8, 1))
        values = function(labels, predictions[:48].reshape(8, 6, 4) * 10.0)
    elif name.startswith("sparse"):
        values = function(classes, predictions)
    elif name.startswith("categorical"):
        values = function(np.eye(4, dtype=np.float32)[classes], predictions)
    else:
        values = function(_LABELS, predictions)
    return np.ravel(np.asarray(values, dtype=np.float64))


@pytest.mark.parametrize("op, spelling", _keras_losses_claiming_a_sign(),
                         ids=lambda case: getattr(case, "name", case))
def test_keras_losses_keep_their_sign(op, spelling):
    """Of probabilities, each loss is finite and within its claim; of any scores (raw,
    all 0), it is within its claim wherever it is defined (a cross-entropy of an all-zero
    row divides 0 by 0: another hazard, its own)."""
    assert len(_keras_losses_claiming_a_sign()) >= 10  # the enumeration itself works
    probabilities = 1.0 / (1.0 + np.exp(-_PREDICTIONS))
    values = _keras_loss_values(spelling, probabilities)
    assert np.isfinite(values).all() and (values >= op.lo).all(), (spelling, values.min())
    for scores in (_PREDICTIONS, np.zeros_like(_PREDICTIONS)):
        values = _keras_loss_values(spelling, scores)
        assert (values[~np.isnan(values)] >= op.lo).all(), (spelling, np.nanmin(values))


@pytest.mark.parametrize("spelling", sorted(
    s for s, op in optable.TABLE.by_spelling.items()
    if optable.TABLE.family.get(op.name) == "window"))
def test_signal_windows_lie_in_their_range(spelling):
    op = optable.TABLE.by_spelling[spelling]
    for length in range(1, 33):
        for periodic in (True, False):
            try:
                window = function_of(spelling)(length, periodic=periodic)
            except TypeError:  # kaiser windows take no `periodic`
                window = function_of(spelling)(length)
            values = np.asarray(window, dtype=np.float64)
            assert ((values >= op.lo - TOLERANCE) & (values <= op.hi + TOLERANCE)).all(), (
                spelling, length, values.min(), values.max())
