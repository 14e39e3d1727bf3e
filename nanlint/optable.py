"""What nanlint knows about TensorFlow and Keras ops, as data.

Every spelling of an op (``tf.log``, ``tf.math.log``, ``tf.compat.v1.log``, ``K.log``,
``keras.ops.log``) maps to one canonical name. Each canonical op says how its output relates
to its inputs (its *transfer*: a fixed range, "like its first argument", "the maximum of its
arguments", ...) and, for producers, why its output can be exactly 0 or negative. The value
analysis (``nanlint.analysis``) implements each transfer once; rules ask for canonical names.

Spellings are written in short namespaces: ``tf`` (tensorflow, also compat.v1/v2), ``K``
(the Keras backend), ``ops`` (Keras 3 ``keras.ops``), ``activations``, ``layers``, ``losses``,
``keras`` (the rest of Keras) and ``np`` (numpy).

``OPS`` are the ops written by hand, each with its own model. Most other public functions fall
into a few *families* (``FAMILIES``): elementwise functions with a known range, structure ops
that keep their input's elements, sums, averages, linear algebra, constructors, random draws.
Each family is modeled once; its members, per namespace, are data (``opfamilies.MEMBERS``),
expanded into one ``Op`` per name at import. What is not numeric at all (scopes, shapes,
summaries, io, config) is declared in ``NOT_NUMERIC``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache
from math import inf
from typing import Dict, Optional, Tuple

from nanlint.opfamilies import CONTRIB_LAYERS, MEMBERS

# Module prefixes rewritten before a qualified name is looked up, longest first.
MODULE_ALIASES: Tuple[Tuple[str, str], ...] = (
    ("tensorflow.compat.v1.keras.", "keras."),
    ("tensorflow.compat.v2.keras.", "keras."),
    ("tensorflow.python.keras.", "keras."),
    ("tensorflow.keras.", "keras."),
    ("tensorflow.compat.v1.", "tensorflow."),
    ("tensorflow.compat.v2.", "tensorflow."),
    ("tensorflow._api.v2.", "tensorflow."),
    ("tensorflow._api.v1.", "tensorflow."),
    # TF1's contrib layers by their module's path (`from tensorflow.contrib.layers.python
    # import layers`)
    ("tensorflow.contrib.layers.python.layers.layers.", "tensorflow.contrib.layers."),
    ("tensorflow.contrib.layers.python.layers.", "tensorflow.contrib.layers."),
    ("tf_keras.", "keras."),
    ("keras.src.", "keras."),
    ("keras.api.", "keras."),
    ("keras._tf_keras.keras.", "keras."),
    ("tf_slim.layers.", "tensorflow.contrib.slim."),
    ("tf_slim.", "tensorflow.contrib.slim."),
)

# Canonical module → namespace used in the spellings below, longest first.
NAMESPACES: Tuple[Tuple[str, str], ...] = (
    ("keras.ops.numpy", "ops"),
    ("keras.ops.nn", "ops"),
    ("keras.ops.math", "ops"),
    ("keras.ops.core", "ops"),
    ("keras.ops", "ops"),
    ("keras.backend", "K"),
    ("keras.activations", "activations"),
    ("keras.layers", "layers"),
    ("keras.losses", "losses"),
    ("keras", "keras"),
    ("tensorflow", "tf"),
    ("numpy", "np"),
)

# Prefixes that make a module "TensorFlow or Keras" (for the text pre-check and imports).
TF_MODULE_ROOTS = ("tensorflow", "keras", "tf_keras")


@dataclass(frozen=True)
class Reason:
    """Why an op's output can be exactly 0 (or negative): the evidence a rule reports."""

    why: str
    confidence: str = "high"
    aggregate: bool = True  # still true of a sum/mean: all elements can be 0 at once
    discrete: bool = False  # exactly 0 or >= 1 (a count): divide_no_nan guards it
    tiny: bool = False  # approaches 0 continuously, so it can be tiny without being 0


@dataclass(frozen=True)
class Op:
    """One canonical op.

    ``transfer`` names the rule by which the analysis computes the output from the inputs:
    ``range`` (a fixed range ``lo..hi``), ``like`` (the first argument, unchanged),
    ``reduce`` (a sum or mean of the first argument), ``square``, ``abs``, ``norm``,
    ``sqrt``, ``pow``, ``exp``, ``add``, ``subtract``, ``multiply``, ``divide``,
    ``divide_no_nan``, ``maximum``, ``minimum``, ``clip``, ``cast``, ``bool`` (a mask),
    ``count``, ``filled`` (its second argument, everywhere), ``map`` (the results of a
    function called on each element), ``diag`` (a matrix with the argument on its diagonal,
    0 elsewhere), ``epsilon`` (the Keras fuzz factor), ``constant``, ``layer`` (a Keras
    layer constructor: the output depends on ``activation=``), ``layer_fn``
    (``tf.layers.dense``: ``activation=`` or ``activation_fn=``, by default ``activation``),
    ``apply`` (a layer that calls the function it is given, ``keras.layers.Lambda(f)``:
    calling the layer calls ``f``; one that takes no function, ``Flatten``, passes its input
    through), ``object`` (not a tensor — an optimizer, a dtype policy: the analysis knows no
    value), ``sum`` (a sum of the first argument's elements: a segment sum, a trace),
    ``prod`` (a product of them).
    """

    name: str
    spellings: Tuple[str, ...]
    transfer: str = "range"
    args: Tuple[str, ...] = ("x",)  # parameter names, "a|b" for alternatives
    lo: float = -inf
    hi: float = inf
    lo_open: bool = False
    hi_open: bool = False
    zero: Optional[Reason] = None
    negative: Optional[Reason] = None
    tags: Tuple[str, ...] = ()
    guarded: bool = False  # a fused or epsilon-carrying op that is safe by construction
    # layers: the activation the layer applies by itself; layer_fn: the default activation
    activation: Optional[str] = None
    # Whole numbers (``Value.integral``): True, the output holds only whole numbers whatever
    # the input (ones, a one-hot row, a count) unless a value argument after the second
    # says otherwise (``one_hot``'s ``on_value``); False, never proven whole even for a
    # whole input (dropout rescales what it keeps); None, as the transfer computes it.
    integral: Optional[bool] = None
    # The inputs where the op is defined (a real output): log of x < 0 is NaN.
    domain: Tuple[float, float] = (-inf, inf)
    # The points where its gradient is inf or NaN, as short texts ("0", "-1"); for a binary
    # op whose point needs both arguments, the pair ("(0, 0)": atan2).
    gradient: Tuple[str, ...] = ()
    # Whether finite inputs (in the domain) can give an infinite output (exp(89), log(0)).
    overflows: bool = False
    # How the property tests call it: "unary" (elementwise, f(x)), "binary" (elementwise,
    # f(x, y)), "reduce" (f(x) of a vector); "" for anything else (its range is not fixed).
    form: str = ""
    # A numpy function that computes what a TF op computes (``NUMPY_SAME``): the op's facts
    # hold of its result, a host array, which carries no gradient.
    array: bool = False
    # An array's method (`x.max(1)`, ``ARRAY_METHODS``): its first argument is the receiver.
    method: bool = False


_UNDERFLOW = Reason("which underflows to exactly 0 in float32", "high", aggregate=False,
                    tiny=True)
_RELU = Reason("which is exactly 0 for every negative input", "high")
_LINEAR = Reason("a linear output, which takes negative values", "medium")
_LOSS = Reason("a loss, which reaches 0 when predictions match the targets", "medium")
_MASK_COUNT = Reason("a count, which is 0 when nothing is selected", "high", discrete=True)
_CONSTANT = Reason("which is 0 where all the values it reduces are equal (a constant "
                   "feature, an all-zero row) and tiny near that", "medium", tiny=True)
_VARIABLE = Reason("a trainable variable, which training can move through 0", "medium",
                   aggregate=False)

ARG_X = ("x|input|input_tensor|features|t|a|logits|tensor|value|values",)
ARG_XY = ("x|a", "y|b")


def _contrib(*names: str) -> Tuple[str, ...]:
    """The spellings of TF1's contrib layers ``names`` (``tf.contrib.layers.flatten``,
    ``tf.contrib.slim.flatten``, ``tf.contrib.slim.layers.flatten``). TensorFlow 2 installs
    none of them, so nothing can check them: each is modeled as the TF 2 op it calls, whose
    claims the property tests check (``slim.flatten`` as ``tf.reshape``, ``slim.softmax`` as
    ``tf.nn.softmax``, ``slim.dropout`` as ``tf.nn.dropout``)."""
    return tuple(f"{namespace}.{name}" for namespace in CONTRIB_LAYERS for name in names)


OPS: Tuple[Op, ...] = (
    # -- the ops rules look for -------------------------------------------------------------
    Op("log", ("tf.math.log", "tf.log", "K.log", "ops.log"), transfer="log", args=ARG_X,
       domain=(0.0, inf), gradient=("0",), overflows=True, form="unary"),
    Op("sqrt", ("tf.math.sqrt", "tf.sqrt", "K.sqrt", "ops.sqrt"), transfer="sqrt", args=ARG_X,
       lo=0.0, domain=(0.0, inf), gradient=("0",), form="unary"),
    Op("pow", ("tf.math.pow", "tf.pow", "K.pow", "ops.power", "ops.pow"), transfer="pow",
       args=("x|base", "y|a|exponent"), domain=(0.0, inf), gradient=("0",), overflows=True,
       form="binary"),
    Op("divide", ("tf.math.divide", "tf.divide", "tf.div", "tf.truediv", "tf.realdiv",
                  "tf.math.truediv", "tf.math.realdiv", "ops.divide", "ops.true_divide"),
       transfer="divide", args=ARG_XY),
    Op("divide_no_nan", ("tf.math.divide_no_nan", "tf.div_no_nan", "ops.divide_no_nan"),
       transfer="divide_no_nan", args=ARG_XY, guarded=True),
    Op("rsqrt", ("tf.math.rsqrt", "tf.rsqrt", "ops.rsqrt"), transfer="range", lo=0.0,
       lo_open=True, domain=(0.0, inf), gradient=("0",), overflows=True, form="unary"),
    # -- producers: where zeros, negatives and probabilities come from -----------------------
    Op("relu", ("tf.nn.relu", "K.relu", "ops.relu", "activations.relu"), lo=0.0,
       zero=_RELU, tags=("relu",), form="unary"),
    Op("relu6", ("tf.nn.relu6", "ops.relu6", "activations.relu6"), lo=0.0, hi=6.0,
       zero=_RELU, tags=("relu",), form="unary"),
    Op("softmax", ("tf.nn.softmax", "tf.math.softmax", "tf.softmax", "K.softmax", "ops.softmax",
                   "activations.softmax", *_contrib("softmax")),
       lo=0.0, hi=1.0, zero=_UNDERFLOW, tags=("softmax", "probability"), form="unary",
       transfer="squash"),
    Op("sigmoid", ("tf.math.sigmoid", "tf.sigmoid", "tf.nn.sigmoid", "K.sigmoid",
                   "K.hard_sigmoid", "ops.sigmoid", "ops.hard_sigmoid", "activations.sigmoid",
                   "activations.hard_sigmoid"),
       lo=0.0, hi=1.0, zero=_UNDERFLOW, tags=("sigmoid", "probability"), form="unary",
       transfer="squash"),
    Op("negative", ("tf.math.negative", "tf.negative", "ops.negative", "np.negative"),
       transfer="negate", args=ARG_X, form="unary"),
    Op("tanh", ("tf.math.tanh", "tf.tanh", "tf.nn.tanh", "K.tanh", "ops.tanh",
                "activations.tanh"),
       lo=-1.0, hi=1.0, negative=Reason("which ranges over (-1, 1)", "high"), tags=("tanh",),
       form="unary"),
    Op("matmul", ("tf.linalg.matmul", "tf.matmul", "K.dot", "K.batch_dot", "ops.matmul",
                  "ops.dot", "tf.tensordot", "ops.tensordot", "tf.nn.conv1d", "tf.nn.conv2d",
                  "tf.nn.conv3d", "K.conv1d", "K.conv2d", "K.conv3d", "tf.linalg.tensordot",
                  # a SparseTensor times a dense matrix
                  "tf.sparse.sparse_dense_matmul", "tf.sparse.matmul",
                  "tf.sparse_tensor_dense_matmul"),
       transfer="matmul", args=("a|x|x1|input|sp_a", "b|y|x2|filters"), negative=_LINEAR,
       tags=("linear",)),
    Op("einsum", ("tf.einsum", "tf.linalg.einsum", "ops.einsum"), transfer="einsum",
       args=("equation",), negative=_LINEAR, tags=("linear",)),
    Op("linear", ("tf.nn.bias_add", "tf.nn.xw_plus_b",
                  "K.bias_add"), negative=_LINEAR, tags=("linear",)),
    Op("exp", ("tf.math.exp", "tf.exp", "K.exp", "ops.exp"), transfer="exp", args=ARG_X,
       lo=0.0, overflows=True, form="unary"),
    Op("softplus", ("tf.math.softplus", "tf.nn.softplus", "K.softplus", "ops.softplus",
                    "activations.softplus"), lo=0.0, guarded=True, form="unary"),
    # A tensor of one value: `tf.fill(dims, value)`, `ops.full_like(x, -1e9)` (a mask's fill).
    Op("full", ("tf.fill", "ops.full", "ops.full_like"), transfer="filled",
       args=("dims|shape|x", "value|fill_value")),
    Op("ones", ("tf.ones", "tf.ones_like", "K.ones", "K.ones_like", "ops.ones",
                "ops.ones_like"), lo=1.0, hi=1.0, tags=("binary",), integral=True, form="shape"),
    # 0/1 tensors ("binary"): a mask minus one of them still counts (see arithmetic).
    Op("eye", ("tf.eye", "tf.linalg.eye", "K.eye", "ops.eye", "ops.identity"), lo=0.0, hi=1.0,
       args=("num_rows|N|n|size",), tags=("binary",), integral=True, form="shape"),
    Op("diag", ("tf.linalg.diag", "tf.matrix_diag", "tf.diag", "tf.linalg.tensor_diag",
                "ops.diag"), transfer="diag", args=("diagonal|x|v",)),
    Op("zeros", ("tf.zeros", "tf.zeros_like", "K.zeros", "K.zeros_like", "ops.zeros",
                 "ops.zeros_like"), lo=0.0, hi=0.0,
       zero=Reason("which is all zeros", "high"), integral=True, form="shape"),
    # Gradients: exactly 0 wherever a relu is dead or a variable does not touch the loss.
    # `tape.gradient`, `optimizer.compute_gradients`, ... are methods: GRADIENT_METHODS.
    Op("gradients", ("tf.gradients", "K.gradients"), transfer="gradient",
       args=("ys|loss", "xs|variables")),
    # Random normal draws and initializers: NAN304 checks those that initialize weights.
    Op("random_normal", ("tf.random.normal", "tf.random_normal", "tf.random.truncated_normal",
                         "tf.truncated_normal", "K.random_normal", "K.truncated_normal",
                         "keras.random.normal", "keras.random.truncated_normal"),
       transfer="any", args=("shape", "mean", "stddev")),
    # Keras' normal initializers default to stddev 0.05; TF's `*_normal_initializer` to 1.0
    # in TF1 and 0.05 in TF2, so their default is not known.
    Op("normal_initializer", ("keras.initializers.RandomNormal",
                              "keras.initializers.TruncatedNormal",
                              "keras.initializers.random_normal",
                              "keras.initializers.truncated_normal"),
       transfer="object", args=("mean", "stddev"), tags=("initializer",)),
    Op("tf_normal_initializer", ("tf.random_normal_initializer",
                                 "tf.truncated_normal_initializer",
                                 "tf.initializers.random_normal",
                                 "tf.initializers.truncated_normal"),
       transfer="object", args=("mean", "stddev"), tags=("initializer",)),
    Op("zeros_initializer", ("keras.initializers.zeros", "keras.initializers.Zeros",
                             "tf.zeros_initializer", "tf.initializers.zeros",
                             "tf.initializers.Zeros", "K.zeros_initializer"),
       transfer="object", args=()),
    Op("random_uniform", ("tf.random.uniform", "tf.random_uniform", "K.random_uniform",
                          "keras.random.uniform"),
       transfer="uniform", args=("shape", "minval|low", "maxval|high")),
    Op("variable", ("tf.Variable", "tf.get_variable", "K.variable", "keras.Variable",
                    # TF1 only: slim's, which call tf.get_variable
                    "tf.contrib.slim.variable", "tf.contrib.slim.model_variable"),
       transfer="variable", args=("initial_value|initializer|value",)),
    Op("count_nonzero", ("tf.math.count_nonzero", "tf.count_nonzero", "ops.count_nonzero"),
       lo=0.0, zero=_MASK_COUNT, tags=("count",), integral=True, form="reduce"),
    Op("bool", ("tf.math.equal", "tf.equal", "tf.math.not_equal", "tf.not_equal",
                "tf.math.greater", "tf.greater", "tf.math.greater_equal", "tf.greater_equal",
                "tf.math.less", "tf.less", "tf.math.less_equal", "tf.less_equal",
                "tf.math.logical_and", "tf.logical_and", "tf.math.logical_or", "tf.logical_or",
                "tf.math.logical_not", "tf.logical_not", "tf.math.is_finite", "tf.is_finite",
                "tf.sequence_mask", "K.equal", "K.not_equal", "K.greater", "K.less",
                "K.greater_equal", "K.less_equal",
                "ops.equal", "ops.not_equal", "ops.greater", "ops.greater_equal", "ops.less",
                "ops.less_equal", "ops.logical_and", "ops.logical_or", "ops.logical_not"),
       transfer="bool"),
    Op("mse", ("tf.losses.mean_squared_error", "losses.mean_squared_error", "losses.mse",
               "losses.MSE", "losses.mean_absolute_error", "losses.mae", "losses.MAE",
               "keras.metrics.mean_squared_error", "tf.losses.absolute_difference",
               *(f"tf.contrib.{module}.{name}" for module in ("losses", "slim.losses")
                 for name in ("mean_squared_error", "absolute_difference"))),
       lo=0.0, zero=_LOSS, tags=("loss", "mse")),
    # -- guarded, fused, epsilon-carrying ops: safe by construction --------------------------
    Op("log_softmax", ("tf.nn.log_softmax", "tf.math.log_softmax", "ops.log_softmax",
                       "activations.log_softmax"), hi=0.0, guarded=True, form="unary",
       tags=("log_probability",)),
    Op("log_sigmoid", ("tf.math.log_sigmoid", "tf.log_sigmoid", "ops.log_sigmoid",
                       "activations.log_sigmoid"), hi=0.0, guarded=True, form="unary"),
    Op("logsumexp", ("tf.math.reduce_logsumexp", "tf.reduce_logsumexp", "K.logsumexp",
                     "ops.logsumexp"), guarded=True),
    Op("xlogy", ("tf.math.xlogy", "tf.math.xdivy", "ops.xlogy"), guarded=True),
    Op("l2_normalize", ("tf.math.l2_normalize", "tf.nn.l2_normalize", "tf.linalg.l2_normalize",
                        "K.l2_normalize", "ops.normalize", *_contrib("unit_norm")),
       lo=-1.0, hi=1.0, guarded=True,
       form="unary"),
    Op("fused_cross_entropy", (
        "tf.nn.softmax_cross_entropy_with_logits", "tf.nn.softmax_cross_entropy_with_logits_v2",
        "tf.nn.sparse_softmax_cross_entropy_with_logits",
        "tf.nn.sigmoid_cross_entropy_with_logits", "tf.nn.weighted_cross_entropy_with_logits",
        "tf.losses.softmax_cross_entropy", "tf.losses.sparse_softmax_cross_entropy",
        "tf.losses.sigmoid_cross_entropy", "losses.categorical_crossentropy",
        "losses.sparse_categorical_crossentropy", "losses.binary_crossentropy",
        "K.categorical_crossentropy", "K.sparse_categorical_crossentropy",
        "K.binary_crossentropy", "ops.categorical_crossentropy",
        "ops.sparse_categorical_crossentropy", "ops.binary_crossentropy",
        # TF1 only: contrib's losses, which tf.losses took over
        *(f"tf.contrib.{module}.{name}" for module in ("losses", "slim.losses")
          for name in ("softmax_cross_entropy", "sparse_softmax_cross_entropy",
                       "sigmoid_cross_entropy"))),
       lo=0.0, guarded=True, tags=("loss",)),
    Op("cosine_similarity", ("losses.cosine_similarity", "losses.CosineSimilarity",
                             "keras.metrics.cosine_similarity"),
       lo=-1.0, hi=1.0, guarded=True),
    # Keras' loss classes: an object, whose call gives the loss of its function.
    Op("loss_object", tuple(f"losses.{name}" for name in (
        "BinaryCrossentropy BinaryFocalCrossentropy CTC CategoricalCrossentropy "
        "CategoricalFocalCrossentropy CategoricalGeneralizedCrossEntropy CategoricalHinge "
        "Circle Dice Hinge Huber KLDivergence LogCosh Loss MeanAbsoluteError "
        "MeanAbsolutePercentageError MeanSquaredError MeanSquaredLogarithmicError Poisson "
        "SparseCategoricalCrossentropy SquaredHinge Tversky").split()),
       transfer="object", args=()),
    # TF1's distributions (`tf.distributions`, moved to TensorFlow Probability) and contrib's:
    # objects, whose log-density methods give log-probabilities (LOG_DENSITY_METHODS).
    Op("distribution", (
        *(f"tf.distributions.{name}" for name in (
            "Bernoulli Beta Categorical Dirichlet DirichletMultinomial Distribution Exponential "
            "Gamma Laplace Multinomial Normal StudentT Uniform").split()),
        *(f"tf.contrib.distributions.{name}" for name in (
            "Bernoulli Beta Categorical Dirichlet Exponential Gamma Laplace Logistic "
            "Multinomial MultivariateNormalDiag MultivariateNormalFullCovariance "
            "MultivariateNormalTriL Normal OneHotCategorical Poisson RelaxedBernoulli "
            "RelaxedOneHotCategorical StudentT Uniform").split())),
       transfer="object", args=()),
    Op("epsilon", ("K.epsilon", "keras.config.epsilon"), transfer="epsilon", args=()),
    # -- ops whose output follows their inputs ----------------------------------------------
    Op("reduce_sum", ("tf.math.reduce_sum", "tf.reduce_sum", "K.sum", "ops.sum",
                      "tf.math.cumsum", "tf.cumsum", "ops.cumsum", "tf.add_n", "tf.math.add_n",
                      "K.cumsum"),
       transfer="reduce", args=ARG_X),
    Op("reduce_mean", ("tf.math.reduce_mean", "tf.reduce_mean", "K.mean", "ops.mean"),
       transfer="reduce", args=ARG_X),
    Op("reduce_max", ("tf.math.reduce_max", "tf.reduce_max", "K.max", "ops.max", "ops.amax"),
       transfer="reduce", args=ARG_X),
    Op("reduce_min", ("tf.math.reduce_min", "tf.reduce_min", "K.min", "ops.min", "ops.amin"),
       transfer="reduce", args=ARG_X),
    # Moments: a variance and its root, the standard deviation, are 0 for a constant input.
    Op("variance", ("tf.math.reduce_variance", "K.var", "ops.var"), lo=0.0, zero=_CONSTANT,
       args=ARG_X, tags=("variance",), overflows=True, form="reduce"),
    Op("std", ("tf.math.reduce_std", "K.std", "ops.std"), lo=0.0, zero=_CONSTANT, args=ARG_X,
       tags=("std",), overflows=True, form="reduce"),
    Op("where", ("tf.where", "tf.where_v2", "K.switch", "ops.where"),
       transfer="where", args=("condition|cond", "x|then_expression|x1", "y|else_expression|x2")),
    Op("square", ("tf.math.square", "tf.square", "K.square", "ops.square"),
       transfer="square", args=ARG_X),
    Op("abs", ("tf.math.abs", "tf.abs", "K.abs", "ops.abs", "ops.absolute"),
       transfer="abs", args=ARG_X),
    Op("norm", ("tf.norm", "tf.linalg.norm", "tf.math.l2_norm", "ops.norm"),
       transfer="norm", args=("tensor|x",), lo=0.0, gradient=("0",), overflows=True,
       form="reduce"),
    Op("maximum", ("tf.math.maximum", "tf.maximum", "K.maximum", "ops.maximum"),
       transfer="maximum", args=ARG_XY),
    Op("minimum", ("tf.math.minimum", "tf.minimum", "K.minimum", "ops.minimum"),
       transfer="minimum", args=ARG_XY),
    Op("clip", ("tf.clip_by_value", "K.clip", "ops.clip"), transfer="clip",
       args=("t|x|tensor", "clip_value_min|x_min|min_value|min",
             "clip_value_max|x_max|max_value|max")),
    Op("add", ("tf.math.add", "tf.add", "ops.add"), transfer="add", args=ARG_XY),
    Op("subtract", ("tf.math.subtract", "tf.subtract", "tf.sub", "ops.subtract"),
       transfer="subtract", args=ARG_XY),
    Op("multiply", ("tf.math.multiply", "tf.multiply", "tf.mul", "ops.multiply"),
       transfer="multiply", args=ARG_XY),
    Op("cast", ("tf.cast", "tf.dtypes.cast", "tf.to_float", "tf.to_double", "K.cast",
                "K.cast_to_floatx", "ops.cast"),
       transfer="cast", args=ARG_X),
    # A cast that also scales: integers to floats in [0, 1].
    Op("convert_image_dtype", ("tf.image.convert_image_dtype",), transfer="cast", args=ARG_X,
       integral=False),
    Op("identity", ("tf.identity", "K.identity", "tf.stop_gradient", "K.stop_gradient",
                    "ops.stop_gradient", "tf.reshape", "K.reshape", "ops.reshape",
                    "tf.transpose", "K.transpose", "ops.transpose", "tf.linalg.transpose",
                    "tf.squeeze", "K.squeeze", "ops.squeeze",
                    "tf.expand_dims", "K.expand_dims", "ops.expand_dims", "tf.tile", "K.tile",
                    "ops.tile", "tf.broadcast_to",
                    "ops.broadcast_to", "tf.ensure_shape", "tf.convert_to_tensor",
                    "ops.convert_to_tensor", "tf.constant", "K.constant", "K.flatten",
                    "tf.ragged.constant",
                    # TF1 only, as K.flatten and tf.identity (a gradient scaled, not the value)
                    "tf.layers.flatten", *_contrib("flatten", "scale_gradient")),
       transfer="like", args=ARG_X),
    # Keras 2's `in_train_phase(x, alt)`: `x` is the value training sees (and differentiates).
    Op("in_train_phase", ("K.in_train_phase",), transfer="like", args=("x",)),
    # An assignment returns the value it assigns (TF1's `tf.assign`, the Keras backend's).
    Op("assign", ("tf.assign", "K.update"), transfer="assign",
       args=("ref|x", "value|new_x")),
    # Dropout zeroes some elements and scales the rest by 1 / keep_prob.
    Op("dropout", ("tf.nn.dropout", "K.dropout", "tf.layers.dropout", *_contrib("dropout")),
       transfer="like",
       args=(ARG_X[0] + "|inputs",), integral=False),
    # Structure ops: their output holds (some of) their input's elements.
    # A selection by a mask: the elements of x where it holds (`boolean_mask(x, x != 0)` has
    # no zero left).
    Op("boolean_mask", ("tf.boolean_mask",), transfer="selected", args=("tensor|x", "mask")),
    Op("structure", ("tf.gather", "K.gather", "ops.take", "tf.gather_nd", "tf.batch_gather",
                     "tf.reverse", "tf.slice", "tf.strided_slice",
                     "tf.roll", "tf.repeat", "K.repeat_elements", "ops.take_along_axis",
                     "ops.flip", "ops.roll", "ops.repeat", "ops.slice", "K.repeat",
                     "K.reverse"),
       transfer="like", args=("x|params|tensor|input|arr|a|values",)),
    # A list of pieces of the input: each one unpacked (`a, b = tf.unstack(x)`) is like it.
    Op("split", ("tf.unstack", "K.unstack", "ops.unstack", "tf.split", "ops.split",
                 "ops.array_split"),
       transfer="like", args=("value|x|ary",), tags=("pieces",)),
    Op("concat", ("tf.concat", "tf.stack", "tf.parallel_stack", "K.concatenate", "K.stack",
                  "ops.concatenate", "ops.stack", "ops.hstack", "ops.vstack",
                  "tf.sparse.concat", "tf.sparse_concat", "tf.ragged.stack"),
       transfer="join", args=("values|tensors|xs|x|arrays|sp_inputs",)),
    Op("cond", ("tf.cond", "ops.cond"), transfer="where", args=("pred", "true_fn", "false_fn")),
    # `map_fn(fn, elems)` calls `fn` on each element of `elems`: a call site of `fn`.
    Op("map_fn", ("tf.map_fn", "tf.vectorized_map", "K.map_fn", "ops.map", "ops.vectorized_map",
                  "tf.sparse.map_values", "tf.ragged.map_flat_values"),
       transfer="map", args=("fn|f|function|op", "elems|xs|elements")),
    # Non-negative constructors: signs come from producers, not from every matmul.
    Op("one_hot", ("tf.one_hot", "ops.one_hot", "K.one_hot", *_contrib("one_hot_encoding")),
       lo=0.0, hi=1.0, args=("indices|x|labels", "depth|num_classes", "on_value", "off_value"),
       tags=("binary", "one_hot"), integral=True),
    Op("mel_matrix", ("tf.signal.linear_to_mel_weight_matrix",), lo=0.0),
    # -- Keras layers: the output is the layer's activation ---------------------------------
    # TF1's `tf.layers` classes are Keras's: the same model.
    Op("dense", ("layers.Dense", "tf.layers.Dense"), transfer="layer",
       args=("units", "activation")),
    Op("dense_layer", ("layers.Conv1D", "layers.Conv2D", "layers.Conv3D",
                       "layers.Conv2DTranspose", "layers.SeparableConv2D",
                       "layers.DepthwiseConv2D", "layers.EinsumDense",
                       *(f"tf.layers.{name}" for name in (
                           "Conv1D", "Conv2D", "Conv3D", "Conv2DTranspose", "Conv3DTranspose",
                           "SeparableConv1D", "SeparableConv2D"))),
       transfer="layer", args=("units|filters|output_shape",)),
    Op("activation_layer", ("layers.Activation",), transfer="layer", args=("activation",)),
    Op("relu_layer", ("layers.ReLU",), transfer="layer", args=(), activation="relu"),
    Op("softmax_layer", ("layers.Softmax",), transfer="layer", args=(), activation="softmax"),
    # The activation is also taken by position: third of `dense`, eighth of a convolution.
    Op("dense_fn", ("tf.layers.dense",), transfer="layer_fn",
       args=("inputs|x", "units", "activation"), activation="linear"),
    Op("conv_fn", ("tf.layers.conv2d", "tf.layers.conv1d", "tf.layers.conv3d"),
       transfer="layer_fn", args=("inputs|x", "filters", "kernel_size", "strides", "padding",
                                  "data_format", "dilation_rate", "activation"),
       activation="linear"),
    # Seventh of a transposed convolution (no dilation rate), ninth of a separable one.
    Op("conv_transpose_fn", ("tf.layers.conv2d_transpose", "tf.layers.conv3d_transpose"),
       transfer="layer_fn", args=("inputs|x", "filters", "kernel_size", "strides", "padding",
                                  "data_format", "activation"), activation="linear"),
    Op("separable_conv_fn", ("tf.layers.separable_conv1d", "tf.layers.separable_conv2d"),
       transfer="layer_fn", args=("inputs|x", "filters", "kernel_size", "strides", "padding",
                                  "data_format", "dilation_rate", "depth_multiplier",
                                  "activation"), activation="linear"),
    # TF1 contrib / slim layers take `activation_fn=` (default relu, but a `slim.arg_scope`
    # often sets another: without the keyword, the activation is not known).
    Op("slim_fn", _contrib("fully_connected", "conv2d", "conv2d_transpose", "separable_conv2d",
                           "conv1d", "conv3d", "conv3d_transpose", "conv2d_in_plane",
                           "convolution", "convolution1d", "convolution2d", "convolution3d",
                           "convolution2d_transpose", "convolution3d_transpose",
                           "convolution2d_in_plane", "separable_convolution2d"),
       transfer="layer_fn", args=("inputs", "num_outputs")),
    # slim's `relu`, `relu6`, `elu` and `linear` are fully connected layers with that
    # activation (an `activation_fn=` still replaces it); `bias_add` and the legacy fully
    # connected layer default to none.
    Op("slim_relu_fn", _contrib("relu", "legacy_relu"), transfer="layer_fn",
       args=("inputs|x", "num_outputs|num_output_units"), activation="relu"),
    Op("slim_relu6_fn", _contrib("relu6"), transfer="layer_fn",
       args=("inputs", "num_outputs"), activation="relu6"),
    Op("slim_elu_fn", _contrib("elu"), transfer="layer_fn", args=("inputs", "num_outputs"),
       activation="elu"),
    Op("slim_linear_fn", _contrib("linear", "legacy_linear", "legacy_fully_connected",
                                  "bias_add"),
       transfer="layer_fn", args=("inputs|x", "num_outputs|num_output_units"),
       activation="linear"),
    Op("lambda_layer", ("layers.Lambda",), transfer="apply", args=("function",)),
    # Layers that pass their input's elements through (a relu output stays a relu output).
    Op("structure_layer", tuple(f"layers.{name}" for name in (
        "Flatten", "Reshape", "Permute", "Cropping1D", "Cropping2D", "Cropping3D", "Identity",
        "ActivityRegularization")) + ("tf.layers.Flatten",), transfer="apply", args=()),
    # TF1's pooling layer classes (TF1 only): a max pool keeps its input's elements, an
    # average stays within their range, as tf.nn's pools (structure, average): the input's
    # value passes through.
    Op("pooling_layer", tuple(f"tf.layers.{kind}Pooling{n}D" for kind in ("Max", "Average")
                              for n in (1, 2, 3)), transfer="apply", args=()),
    Op("dropout_layer", tuple(f"layers.{name}" for name in (
        "Dropout", "SpatialDropout1D", "SpatialDropout2D", "SpatialDropout3D")) + (
            "tf.layers.Dropout",), transfer="apply", args=(), integral=False),
    # -- raw input data and the layers that scale it (NAN401, NAN402) ----------------------
    Op("raw_images", ("keras.datasets.mnist.load_data", "keras.datasets.fashion_mnist.load_data",
                      "keras.datasets.cifar10.load_data", "keras.datasets.cifar100.load_data",
                      "tf.io.decode_jpeg", "tf.io.decode_png", "tf.io.decode_image",
                      "tf.io.decode_bmp", "tf.io.decode_gif", "tf.image.decode_jpeg",
                      "tf.image.decode_png", "tf.image.decode_image", "tf.image.decode_bmp",
                      "tf.image.decode_gif", "tf.image.decode_and_crop_jpeg",
                      "tf.image.decode_webp", "tf.image.decode_jxl",
                      "keras.utils.image_dataset_from_directory",
                      "keras.preprocessing.image_dataset_from_directory"),
       transfer="object", tags=("raw_input",)),
    Op("raw_features", ("keras.datasets.boston_housing.load_data",
                        "keras.datasets.california_housing.load_data"),
       transfer="object", tags=("raw_input",)),
    Op("normalization_layer", ("layers.Rescaling", "layers.Normalization",
                               "layers.experimental.preprocessing.Rescaling",
                               "layers.experimental.preprocessing.Normalization",
                               "layers.BatchNormalization", "layers.LayerNormalization",
                               "layers.GroupNormalization", "layers.UnitNormalization",
                               "layers.experimental.SyncBatchNormalization",
                               "tf.layers.BatchNormalization"),
       transfer="object", args=()),
    Op("sequential_model", ("keras.Sequential", "keras.models.Sequential"), transfer="object",
       args=("layers",)),
    Op("functional_model", ("keras.Model", "keras.models.Model"), transfer="object",
       args=("inputs", "outputs")),
    # -- objects that are not tensors: dtype policies, optimizers that take an epsilon -------
    Op("set_dtype_policy", ("keras.mixed_precision.set_global_policy",
                            "keras.mixed_precision.experimental.set_policy",
                            "keras.mixed_precision.set_dtype_policy",
                            "keras.config.set_dtype_policy"),
       transfer="object", args=("policy|value",)),
    Op("set_floatx", ("K.set_floatx", "keras.config.set_floatx"), transfer="object",
       args=("value|dtype",)),
    Op("dtype_policy", ("keras.mixed_precision.Policy", "keras.mixed_precision.experimental.Policy",
                        "keras.mixed_precision.DTypePolicy", "keras.DTypePolicy",
                        "keras.dtype_policies.DTypePolicy"),
       transfer="object", args=("name",)),
    # Optimizers by family (the tag after "optimizer"): NAN301 judges the learning rate per
    # family, NAN105 the `epsilon=` of those that take one.
    Op("adaptive_optimizer", (
        "keras.optimizers.Adam", "keras.optimizers.AdamW", "keras.optimizers.Adamax",
        "keras.optimizers.Nadam", "keras.optimizers.RMSprop", "keras.optimizers.Lion",
        "keras.optimizers.Lamb", "keras.optimizers.Adafactor",
        "keras.optimizers.ScheduleFreeAdamW", "keras.optimizers.legacy.Adam",
        "keras.optimizers.legacy.Adamax", "keras.optimizers.legacy.Nadam",
        "keras.optimizers.legacy.RMSprop", "keras.optimizers.experimental.Adam",
        "keras.optimizers.experimental.AdamW", "keras.optimizers.experimental.Adamax",
        "keras.optimizers.experimental.Nadam", "keras.optimizers.experimental.RMSprop",
        "tf.optimizers.Adam", "tf.optimizers.Adamax", "tf.optimizers.Nadam",
        "tf.optimizers.RMSprop", "tf.train.AdamOptimizer", "tf.train.RMSPropOptimizer"),
       transfer="object", args=("learning_rate|lr",), tags=("optimizer", "adaptive")),
    Op("adagrad_optimizer", (
        "keras.optimizers.Adagrad", "keras.optimizers.Ftrl", "keras.optimizers.legacy.Adagrad",
        "keras.optimizers.legacy.Ftrl", "keras.optimizers.experimental.Adagrad",
        "keras.optimizers.experimental.Ftrl", "tf.optimizers.Adagrad", "tf.optimizers.Ftrl",
        "tf.train.AdagradOptimizer", "tf.train.AdagradDAOptimizer", "tf.train.FtrlOptimizer",
        "tf.train.ProximalAdagradOptimizer"),
       transfer="object", args=("learning_rate|lr",), tags=("optimizer", "adagrad")),
    Op("adadelta_optimizer", (
        "keras.optimizers.Adadelta", "keras.optimizers.legacy.Adadelta",
        "keras.optimizers.experimental.Adadelta", "tf.optimizers.Adadelta",
        "tf.train.AdadeltaOptimizer"),
       transfer="object", args=("learning_rate|lr",), tags=("optimizer", "adadelta")),
    Op("sgd_optimizer", (
        "keras.optimizers.SGD", "keras.optimizers.legacy.SGD",
        "keras.optimizers.experimental.SGD", "tf.optimizers.SGD",
        "tf.train.GradientDescentOptimizer", "tf.train.MomentumOptimizer",
        "tf.train.ProximalGradientDescentOptimizer"),
       transfer="object", args=("learning_rate|lr",), tags=("optimizer", "sgd")),
    # Learning-rate schedules: their first argument is the initial (largest) learning rate.
    Op("lr_schedule", (
        "keras.optimizers.schedules.ExponentialDecay",
        "keras.optimizers.schedules.InverseTimeDecay",
        "keras.optimizers.schedules.PolynomialDecay", "keras.optimizers.schedules.CosineDecay",
        "keras.optimizers.schedules.CosineDecayRestarts", "tf.train.exponential_decay",
        "tf.train.inverse_time_decay", "tf.train.natural_exp_decay",
        "tf.train.polynomial_decay", "tf.train.cosine_decay", "tf.train.cosine_decay_restarts",
        "tf.train.linear_cosine_decay", "tf.train.noisy_linear_cosine_decay"),
       transfer="object", args=("initial_learning_rate|learning_rate",)),
)


# -- families: ops modeled once per family (members: ``opfamilies.MEMBERS``) ---------------
# A family is an ``Op`` whose name is the family's; each member name becomes an op of that
# name (``np.`` and ``np.random.`` names keep their prefix: numpy's are ops of their own).
_PI = 3.141592653589793
_HALF_PI = _PI / 2
_POLES = ("0", "-1", "-2", "-3")  # 0 and the negative integers

FAMILIES: Tuple[Op, ...] = (
    # Elementwise functions with a fixed range (bounds as float32 reaches them).
    Op("sin_cos", (), lo=-1.0, hi=1.0, form="unary"),
    Op("erf", (), lo=-1.0, hi=1.0, form="unary"),
    Op("unit_odd", (), lo=-1.0, hi=1.0, form="unary"),  # softsign, hard_tanh, bessel_i1e
    Op("erfc", (), lo=0.0, hi=2.0, form="unary"),
    Op("acos", (), lo=0.0, hi=_PI, domain=(-1.0, 1.0), gradient=("-1", "1"), form="unary"),
    Op("asin", (), lo=-_HALF_PI, hi=_HALF_PI, domain=(-1.0, 1.0), gradient=("-1", "1"),
       form="unary"),
    Op("atan", (), lo=-_HALF_PI, hi=_HALF_PI, form="unary"),
    Op("atan2", (), lo=-_PI, hi=_PI, gradient=("(0, 0)",), form="binary"),
    Op("sign", (), lo=-1.0, hi=1.0, integral=True, form="unary"),
    Op("probability", (), lo=0.0, hi=1.0, form="unary"),  # sparse_sigmoid, sparsemax
    Op("fraction", (), lo=0.0, hi=1.0, form="unary"),  # zero_fraction
    # No form: a SparseTensor's softmax; the regularized incomplete beta and gamma of
    # parameters (a, b > 0) as well as x.
    Op("sparse_probability", (), lo=0.0, hi=1.0),
    Op("incomplete", (), lo=0.0, hi=1.0),
    Op("cosh", (), lo=1.0, overflows=True, form="unary"),  # also bessel_i0
    Op("bessel_i0e", (), lo=0.0, hi=1.0, lo_open=True, form="unary"),
    Op("positive_exp", (), lo=0.0, overflows=True, form="unary"),  # underflows to 0
    Op("expm1", (), lo=-1.0, overflows=True, form="unary"),
    Op("sinh", (), overflows=True, form="unary"),  # also bessel_i1
    Op("tan", (), form="unary"),
    Op("asinh", (), form="unary"),
    Op("nonnegative", (), lo=0.0, form="unary"),  # abs, sparse_plus, ptp
    # Squares and sums of squares overflow above ~1.8e19 in float32.
    Op("square", (), lo=0.0, overflows=True, form="unary"),
    # (x - y)²: a square of a difference, 0 where x == y (a distance of equal points).
    Op("squared_difference", (), lo=0.0, overflows=True, form="binary",
       transfer="squared_difference", args=("x", "y")),
    Op("hypot", (), lo=0.0, form="binary"),
    Op("nonnegative_reduce", (), lo=0.0, overflows=True, form="reduce"),  # norms, l2_loss
    # Spreads (a standard deviation, a variance): 0 for a constant input.
    Op("spread", (), lo=0.0, zero=_CONSTANT, overflows=True, form="reduce"),
    # No form: losses take labels (ctc, nce, sampled softmax, focal cross-entropy), and
    # relu_layer a weight matrix and a bias.
    Op("loss", (), lo=0.0),
    Op("norms", (), lo=0.0),  # no form: norms of vectors and matrices, a condition number
    Op("relu_layer", (), lo=0.0),
    # Activations: their least value for the default parameters.
    Op("elu", (), lo=-1.0, form="unary"),  # also celu
    Op("selu", (), lo=-1.7581, form="unary"),
    Op("gelu", (), lo=-0.17, form="unary"),
    Op("silu", (), lo=-0.38, form="unary"),  # swish, hard_silu, hard_swish, mish
    # Functions with a domain and singular points: a NaN outside, an infinite gradient at.
    Op("sqrt", (), transfer="sqrt", args=ARG_X, lo=0.0, domain=(0.0, inf), gradient=("0",),
       form="unary"),
    Op("cbrt", (), gradient=("0",), form="unary"),
    Op("reciprocal", (), gradient=("0",), overflows=True, form="unary"),
    Op("log", (), domain=(0.0, inf), gradient=("0",), overflows=True, form="unary"),
    Op("log1p", (), domain=(-1.0, inf), gradient=("-1",), overflows=True, form="unary"),
    Op("atanh", (), domain=(-1.0, 1.0), gradient=("-1", "1"), overflows=True, form="unary"),
    Op("acosh", (), lo=0.0, domain=(1.0, inf), gradient=("1",), form="unary"),
    Op("lgamma", (), gradient=_POLES, overflows=True, form="unary"),  # inf at the poles
    # NaN at its poles, and (in TensorFlow) for subnormal inputs: defined from the least
    # normal float32 up.
    Op("digamma", (), domain=(1.1754944e-38, inf), gradient=_POLES, form="unary"),
    Op("polygamma", (), overflows=True),  # no form: polygamma(n, x) of a whole n, zeta(x, q)
    Op("erfinv", (), domain=(-1.0, 1.0), gradient=("-1", "1"), overflows=True, form="unary"),
    Op("ndtri", (), domain=(0.0, 1.0), gradient=("0", "1"), overflows=True, form="unary"),
    Op("erfcinv", (), domain=(0.0, 2.0), gradient=("0", "2"), overflows=True, form="unary"),
    # A power of x < 0 is real only for whole exponents: the domain is x >= 0.
    Op("pow", (), transfer="pow", args=("x|x1|base", "y|x2|exponent"), domain=(0.0, inf),
       gradient=("0",), overflows=True, form="binary"),
    # Arithmetic, as the hand-written ops of the same transfer.
    Op("add", (), transfer="add", args=("x1|x", "x2|y")),
    Op("subtract", (), transfer="subtract", args=("x1|x", "x2|y")),
    Op("multiply", (), transfer="multiply", args=("x1|x", "x2|y")),
    Op("divide", (), transfer="divide", args=("x1|x", "x2|y"), gradient=()),
    Op("maximum", (), transfer="maximum", args=("x1|x", "x2|y")),
    Op("minimum", (), transfer="minimum", args=("x1|x", "x2|y")),
    Op("clip", (), transfer="clip", args=("a|x", "a_min|x_min|min", "a_max|x_max|max")),
    Op("where", (), transfer="where", args=("condition", "x", "y")),
    # Real output of any sign: other elementwise functions, linear algebra, convolutions,
    # normalizations, statistics.
    Op("unary_any", ()),
    Op("linear", ()),
    # Whole numbers: indices and counts (>= 0), bit operations and rounding (any sign). No
    # form: they take integer tensors, labels and index arrays of their own kinds.
    Op("index", (), lo=0.0, integral=True),
    Op("integer", (), integral=True),
    Op("bool", (), transfer="bool"),  # true or false: no range to check
    Op("cast", (), transfer="cast", args=ARG_X),
    # Structure ops: the output holds (some of) the input's elements.
    Op("structure", (), transfer="like",
       args=("x|a|input|tensor|value|values|params|arr|data|sp_input",)),
    # Maxima of segments: the input's elements, each the largest of its segment, so that
    # `z - gather(segment_max(z), ids)` is at most 0 (a segment softmax's shift).
    Op("segment_maximum", (), transfer="like", args=("data|x|input",), tags=("max",)),
    # The input's elements and zeros around them (padding, a band, a diagonal).
    Op("padded", (), transfer="diag", args=("x|a|input|tensor|array|v|sp_input",)),
    # The diagonal of a matrix: mostly a covariance's or a Gram matrix's (variances, squared
    # norms, >= 0), which the analysis cannot tell from the diagonal of any product: no claim.
    # The diagonal of a matrix: of a Gram matrix, squared norms; of another product, a
    # quadratic form whose sign the matrix decides (not known).
    Op("diagonal", (), transfer="diagonal", args=("input|x|a|tensor",)),
    # Averages: within the range of the input.
    Op("average", (), transfer="reduce", args=("x|a|input|value|data|images",)),
    # Sums: of the sign of their terms.
    Op("sum", (), transfer="sum", args=("x|a|input|data|inputs|sp_input",)),
    # Products: in [0, 1] for factors in [0, 1], >= 0 for factors >= 0.
    Op("product", (), transfer="prod", args=("x|a|input|input_tensor|data",)),
    # Constructors.
    Op("zeros", (), lo=0.0, hi=0.0, integral=True, form="shape"),
    Op("ones", (), lo=1.0, hi=1.0, integral=True, form="shape"),
    Op("unit_binary", (), lo=0.0, hi=1.0, integral=True, form="shape"),  # eye, identity, tri
    Op("fill", ()),  # fill, full, empty, meshgrid
    # Evenly spaced values from a start to a stop: between them, the start itself first
    # (`range(n)` and `arange(n)` start at 0).
    Op("span", (), transfer="span", args=("start", "stop|limit|end")),
    # Random draws; "shape": those that take only a size (or one parameter) first.
    Op("random_any", ()),
    Op("random_unit", (), lo=0.0, hi=1.0, form="shape"),
    Op("random_nonnegative", (), lo=0.0, form="shape"),
    # No form: they need their distribution's parameters (beta's a and b, a Sobol dimension).
    Op("random_unit_parameters", (), lo=0.0, hi=1.0),
    # No form: a window takes its length.
    Op("window", (), lo=0.0, hi=1.0),
    Op("random_nonnegative_parameters", (), lo=0.0),
)

# Transfers a numpy op of its own keeps (one not in NUMPY_SAME); any other becomes "range"
# with the family's bounds, and it claims no 0, no sign and no gradient. A spread's 0 for a
# constant input is as true of an array, but judged on real repositories the data a script
# standardizes was nearly never constant (a fixed dataset, rewards ranked first, constant
# columns dropped first), so `nanlint suspects` ranks it and `check` does not.
NUMPY_TRANSFERS = frozenset({"range", "span", "any", "like", "cast", "bool", "where", "maximum",
                             "minimum", "clip", "diag", "reduce", "add", "subtract",
                             "multiply", "divide", "sqrt"})


# numpy functions that compute what an op of the table computes, elementwise or over an
# axis: spellings of that op, whose facts hold of their arrays (a log of 0 is -inf, an exp of
# 800 is inf in float64 too: the property tests run them under numpy). They are looked up
# as array ops: the result carries no gradient. The statistics of a spread (`np.std`,
# `np.var`) are not among them: see NUMPY_TRANSFERS.
NUMPY_SAME = {
    "np.log": "log", "np.exp": "exp", "np.sqrt": "sqrt", "np.square": "square",
    "np.abs": "abs", "np.absolute": "abs", "np.fabs": "abs", "np.power": "pow",
    "np.float_power": "pow", "np.pow": "pow", "np.sum": "reduce_sum", "np.nansum": "reduce_sum",
    "np.mean": "reduce_mean", "np.nanmean": "reduce_mean", "np.max": "reduce_max",
    "np.amax": "reduce_max", "np.min": "reduce_min", "np.amin": "reduce_min",
    "np.matmul": "matmul", "np.dot": "matmul", "np.linalg.norm": "norm", "np.tanh": "tanh",
    "np.count_nonzero": "count_nonzero", "np.zeros": "zeros", "np.ones": "ones",
    "np.full": "full", "np.full_like": "full",
}


# The methods of arrays (numpy's, pandas' frames, PyTorch's tensors) that compute what an op
# computes, over the receiver: `z - z.max(1, keepdims=True)` is shifted as `z - np.max(z, 1,
# ...)` is; `x.pow(2).sum(-1)` is a sum of squares.
ELEMENTWISE_METHODS = frozenset({"pow", "sqrt", "rsqrt", "exp", "log", "log1p", "abs",
                                 "square", "reciprocal", "sigmoid", "tanh", "relu"})
# How many arguments an array's method takes besides axes (`x.pow(p)`, `x.clip(lo, hi)`);
# 0 for the others. A call given more, the first not an axis, is a module's function.
METHOD_ARITY = {"pow": 1, "power": 1, "clip": 2, "clamp": 2, "dot": 1, "matmul": 1,
                "div": 1, "divide": 1, "true_divide": 1, "truediv": 1, "realdiv": 1,
                "atan2": 1, "arctan2": 1}
ARRAY_METHODS = {"max": "reduce_max", "min": "reduce_min", "sum": "reduce_sum",
                 "mean": "reduce_mean", "clip": "clip", "clamp": "clip", "prod": "reduce_prod",
                 "dot": "matmul", "matmul": "matmul",
                 **{name: name for name in (*ELEMENTWISE_METHODS, "std", "norm", "softmax")}}


def _expand(family: Op, taken: frozenset) -> Tuple[Op, ...]:
    """One op per member name of ``family``, with every spelling of that name; a name
    ``taken`` by a hand-written op (``layers.ReLU`` is ``relu_layer``) is its first spelling
    (``tf.nn.relu_layer``)."""
    spellings: Dict[str, list] = {}
    for namespace, names in MEMBERS.get(family.name, {}).items():
        for name in names.split():
            # numpy's and Keras' losses by their namespace: `np.trace` is no `tf.trace`,
            # `losses.poisson` no `tf.random.poisson`
            canonical = (f"{namespace}.{name}" if namespace.startswith(("np", "losses"))
                         else name)
            if canonical in NUMPY_SAME:
                continue  # a spelling of the op it computes
            spellings.setdefault(canonical, []).append(f"{namespace}.{name}")
    ops = []
    for canonical, spelled in spellings.items():
        name = spelled[0] if canonical in taken else canonical
        op = replace(family, name=name, spellings=tuple(spelled))
        if canonical.startswith("np."):
            op = replace(op, zero=None, negative=None, gradient=(), transfer=(
                op.transfer if op.transfer in NUMPY_TRANSFERS else "range"))
        ops.append(op)
    return tuple(ops)


# Spellings that are not numeric at all (scopes, shapes, dtypes, summaries, io, config,
# sessions, asserts), and whole namespaces of them.
NOT_NUMERIC = frozenset(f"{namespace}.{name}"
                        for namespace, names in MEMBERS["not_numeric"].items()
                        for name in names.split())
NOT_NUMERIC_NAMESPACES: Tuple[str, ...] = (
    "tf.summary", "tf.io", "tf.gfile", "tf.logging", "tf.saved_model", "tf.config",
    "tf.errors", "tf.strings", "tf.sysconfig", "tf.test", "tf.autograph", "tf.distribute",
    "tf.lite", "tf.profiler", "tf.tpu", "tf.flags", "tf.app", "tf.resource_loader",
    "tf.version", "tf.queue", "tf.lookup", "tf.sets", "tf.compat", "tf.dtypes",
    "tf.debugging", "tf.experimental", "tf.estimator", "tf.feature_column", "tf.data",
    "tf.train", "tf.tables", "tf.python_io", "tf.user_ops", "tf.mixed_precision",
    "tf.types", "tf.keras.utils", "keras.utils", "keras.callbacks", "keras.config",
    "keras.saving", "keras.models", "tf.nest", "tf.examples", "tf.metrics", "tf.python.util",
    "tf.python.platform", "tf.python.eager", "tf.python.estimator", "tf.contrib.framework",
    "tf.contrib.tpu", "tf.contrib.training", "tf.contrib.data", "tf.contrib.rnn",
    "tf.contrib.summary", "tf.contrib.tensorboard", "tf.contrib.slim.utils",
    "tf.contrib.layers.utils",
    "tf.nn.rnn_cell",  # TF1's home of the cells of tf.contrib.rnn
    # protocol buffers, the methods of sparse and ragged tensors (shapes, row partitions: the
    # few that compute are modeled), initializers and regularizers (objects that make a
    # tensor or a penalty when a layer asks), TF1's layer-style switch
    "tf.Summary", "tf.SparseTensor", "tf.RaggedTensor", "tf.initializers",
    "keras.initializers", "keras.regularizers", "tf.layers.experimental",
    # slim's training loops, evaluation, queues, datasets and decoders
    *(f"tf.contrib.slim.{module}" for module in (
        "learning", "evaluation", "queues", "summaries", "metrics", "model_analyzer",
        "data", "dataset", "data_decoder", "data_provider", "dataset_data_provider",
        "parallel_reader", "prefetch_queue", "tfexample_decoder", "train_eval", "training")),
    "np.testing", "np.lib", "np.typing", "np.char",
    "np.strings", "np.rec", "np.ma", "np.dtypes", "np.exceptions", "np.ctypeslib",
)

# Distributions that take `probs=` or `logits=` (TensorFlow Probability, TF1's
# `tf.distributions`, PyTorch's): made from probabilities, they take the log of them
# (`log_prob`, `entropy`).
DISTRIBUTIONS = frozenset({"Categorical", "OneHotCategorical", "Bernoulli", "Multinomial",
                           "Binomial", "Geometric", "NegativeBinomial",
                           "RelaxedOneHotCategorical", "RelaxedBernoulli"})

# TensorFlow Probability's distributions made of another (`Independent(d)`, `Sample(d)`):
# what they give is computed from it, a draw by drawing from it, a density by its density.
WRAPPING_DISTRIBUTIONS = frozenset({"Independent", "Sample", "TransformedDistribution",
                                    "BatchReshape", "BatchBroadcast", "Masked"})

# Transposes: ``matmul(x, transpose(x))`` is a Gram matrix (its diagonal: squared norms).
TRANSPOSES = frozenset({"tf.transpose", "K.transpose", "ops.transpose", "tf.linalg.transpose",
                        "tf.linalg.matrix_transpose", "tf.matrix_transpose", "np.transpose"})


# Methods that create a layer's or a metric's variable; `initializer=` one of ZERO_INITIALIZERS
# (strings, or ops of the "zeros_initializer" name) starts it at 0.
STATE_METHODS = frozenset({"add_weight", "add_variable"})
ZERO_INITIALIZERS = frozenset({"zeros", "zero", "Zeros"})

# The keywords that name the axis of a reduction or a softmax: Keras 3 and numpy `axis`, TF1's
# `reduction_indices` (reductions) and `dim` (softmax, l2_normalize).
AXIS_KEYWORDS = ("axis", "reduction_indices", "dim")

# The last names of the map ops: a function passed first to one of them is called there.
MAP_NAMES = frozenset({"map_fn", "vectorized_map", "map", "map_values", "map_flat_values"})

# Methods whose result holds gradients (of a GradientTape, an optimizer), with the least number
# of arguments they take (`np.gradient(f)` has one: not a tape's).
# A distribution's log-density methods (tfp, torch.distributions, RL libraries): a
# log-probability, which falls towards -inf as its probability underflows.
LOG_DENSITY_METHODS = frozenset({"log_prob", "log_pdf", "log_pmf", "logp", "log_likelihood",
                                 "log_cdf", "log_survival_function"})
# An optimizer's update methods, whose first parameter (after self) is a variable's
# gradient: TF1's `Optimizer`, TF2's `OptimizerV2`, Keras 3's `Optimizer`.
UPDATE_METHODS = frozenset({"_apply_dense", "_apply_sparse", "_resource_apply_dense",
                            "_resource_apply_sparse", "_apply_sparse_shared",
                            "_resource_apply_sparse_duplicate_indices", "update_step"})
GRADIENT_METHODS: Dict[str, int] = {"gradient": 2, "jacobian": 2, "batch_jacobian": 2,
                                    "compute_gradients": 1, "get_gradients": 2}

# Optimizers that take an epsilon: (its position among the positional arguments, its
# default). TF1's AdamOptimizer and AdadeltaOptimizer default to 1e-8 and RMSPropOptimizer to
# 1e-10, which float16 flushes to 0; Keras defaults to 1e-7, a float16 subnormal.
# Convolutions of the matmul op that, applied to squares with a filter that is not a
# trainable kernel, are windowed sums of squares (local variances in normalized
# cross-correlation and SSIM: `conv3d(x * x, box) - mean * conv3d(x, box)`).
WINDOW_SUMS = frozenset({"tf.nn.conv1d", "tf.nn.conv2d", "tf.nn.conv3d", "K.conv2d"})

OPTIMIZER_EPSILON: Dict[str, Tuple[int, float]] = {
    "tf.train.AdamOptimizer": (3, 1e-8), "tf.train.AdadeltaOptimizer": (2, 1e-8),
    "tf.train.RMSPropOptimizer": (3, 1e-10),
    **{f"{prefix}.{name}": (position, 1e-7)
       for prefix in ("keras.optimizers", "keras.optimizers.legacy",
                      "keras.optimizers.experimental", "tf.optimizers")
       for name, position in (("Adam", 3), ("AdamW", 4), ("Adamax", 3), ("Nadam", 3),
                              ("RMSprop", 3), ("Adadelta", 2), ("Adagrad", 2))},
}


@dataclass
class OpTable:
    by_spelling: Dict[str, Op] = field(default_factory=dict)
    by_name: Dict[str, Op] = field(default_factory=dict)
    family: Dict[str, str] = field(default_factory=dict)  # op name -> its family's name
    methods: Dict[str, Op] = field(default_factory=dict)  # an array's method -> its op


# The numpy spellings are the ops' own (`nanlint ops` lists `np.log` with `log`).
OPS = tuple(replace(op, spellings=(*op.spellings, *(spelling for spelling, name in
                                                    NUMPY_SAME.items() if name == op.name)))
            for op in OPS)


def _build() -> OpTable:
    table = OpTable()
    taken = frozenset(op.name for op in OPS)
    expanded = [(family.name, op) for family in FAMILIES for op in _expand(family, taken)]
    table.family = {op.name: name for name, op in expanded}
    for op in (*OPS, *(op for _, op in expanded)):
        assert op.name not in table.by_name, f"op {op.name} listed twice"
        table.by_name[op.name] = op
        for spelling in op.spellings:
            assert spelling not in table.by_spelling, f"spelling {spelling} listed twice"
            table.by_spelling[spelling] = op
    for spelling in NUMPY_SAME:  # the op, looked up as numpy's: an array op
        table.by_spelling[spelling] = replace(table.by_spelling[spelling],
                                              spellings=(spelling,), array=True)
    table.methods = {method: replace(table.by_name[name], spellings=(f"np.ndarray.{method}",),
                                     array=True, method=True)
                     for method, name in ARRAY_METHODS.items()}
    return table


TABLE = _build()
# The last component of every spelling: a call whose attribute is not one of these is no op.
LAST_NAMES = frozenset(spelling.rsplit(".", 1)[-1] for spelling in TABLE.by_spelling)
# The same, per op: a module that spells none of an op's never calls it.
OP_LAST_NAMES = {op.name: tuple(sorted({s.rsplit(".", 1)[-1] for s in op.spellings}))
                 for op in OPS}

# Activation names accepted by Keras layers' ``activation=`` (strings) → canonical op names.
ACTIVATION_STRINGS = {
    "relu": "relu", "relu6": "relu6", "softmax": "softmax", "sigmoid": "sigmoid",
    "hard_sigmoid": "sigmoid", "tanh": "tanh", "linear": "linear", "softplus": "softplus",
    "exponential": "exp",
}


def unaliased(qualified: str) -> str:
    """``qualified`` with the module aliases rewritten until none applies
    (`tensorflow._api.v2.compat.v1.x` takes two rewrites)."""
    rewritten = True
    while rewritten:
        rewritten = False
        for prefix, replacement in MODULE_ALIASES:
            if qualified.startswith(prefix):
                qualified = replacement + qualified[len(prefix):]
                rewritten = True
                break
    return qualified


@lru_cache(maxsize=4096)  # a file spells the same few names at every call
def spelling_of(qualified: str) -> Optional[str]:
    """``tensorflow.compat.v1.math.log`` → ``tf.math.log``; None for non-TF names."""
    qualified = unaliased(qualified)
    if qualified.startswith("tensorflow.python.") and not qualified.startswith(
            "tensorflow.python.keras."):
        public = _public_of(qualified.rpartition(".")[2])
        if public is not None:  # `tensorflow.python.ops.math_ops.log` is `tf.math.log`
            return public
    for module, namespace in NAMESPACES:
        if qualified.startswith(module + "."):
            spelling = namespace + qualified[len(module):]
            if spelling.startswith("tf.losses.") and not _known(spelling):
                keras_spelling = "losses." + spelling[len("tf.losses."):]
                if _known(keras_spelling):  # TF2's tf.losses is Keras'
                    return keras_spelling
            return spelling
    return None


# Where TF's internal modules (`tensorflow.python.ops.math_ops`, `.nn_ops`, `.array_ops`,
# `tensorflow.python.framework.ops`) publish their functions: the same function, by its name.
_PUBLIC_NAMESPACES = ("tf", "tf.math", "tf.nn", "tf.linalg", "tf.random", "tf.image")


def _public_of(name: str) -> Optional[str]:
    for namespace in _PUBLIC_NAMESPACES:
        spelling = f"{namespace}.{name}"
        if spelling in TABLE.by_spelling or spelling in NOT_NUMERIC:
            return spelling
    return None


def _known(spelling: str) -> bool:
    return spelling in TABLE.by_spelling or declared(spelling)


def declared(spelling: str) -> bool:
    """Whether ``spelling`` (``tf.summary.scalar``) is declared not numeric."""
    return spelling in NOT_NUMERIC or spelling.startswith(tuple(
        namespace + "." for namespace in NOT_NUMERIC_NAMESPACES))


# The libraries whose functions the table spells out (numpy's, Python's `math` and
# `operator`, scipy's: their own meanings, whatever they are named). A function of any
# other module named after an op is taken at its name (``named_like_op``).
RESOLVED_LIBRARIES = frozenset({"tensorflow", "keras", "tf_keras", "numpy", "math", "scipy",
                                "operator", "tensorflow_probability"})


# Names other array libraries give an op that TensorFlow names otherwise (numpy's and
# PyTorch's clip).
OTHER_NAMES = {"clamp": "clip_by_value", "clip": "clip_by_value"}


def named_like_op(qualified: str) -> Optional[Op]:
    """The op a function of another module is named after (``from utils.compat import
    reduce_sum``, ``backend.softmax``, ``jnp.clip``, ``torch.clamp``): the op of
    ``tf.<name>``, ``tf.math.<name>`` or ``tf.nn.<name>``; None for a library's own name or
    any other."""
    root, last = qualified.partition(".")[0], qualified.rpartition(".")[2]
    last = OTHER_NAMES.get(last, last)
    if root in RESOLVED_LIBRARIES or last.startswith("_") or last not in LAST_NAMES:
        return None
    for namespace in ("tf", "tf.math", "tf.nn"):
        op = TABLE.by_spelling.get(f"{namespace}.{last}")
        if op is not None:
            return op
    return None


def lookup(qualified: str) -> Optional[Op]:
    """The canonical op for a fully qualified dotted name, or None."""
    spelling = spelling_of(qualified)
    return TABLE.by_spelling.get(spelling) if spelling else None
