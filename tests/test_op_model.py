"""The op table against the installed TensorFlow, Keras and numpy.

Completeness: every public function of the namespaces old and new code calls (``tf`` and
``tf.compat.v1`` with their ``math``, ``nn``, ``linalg`` and ``random``; the Keras backend,
Keras 3's and the legacy one, which holds the ``K.*`` functions TF1-era code calls;
``keras.ops``; ``keras.activations``; numpy, ``numpy.linalg`` and ``numpy.random``) is
either an op of the table or declared not numeric.

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
    return np.concatenate([np.ravel(np.asarray(r, dtype=np.float64)) for r in results])


@pytest.mark.parametrize("op, spelling", checked(), ids=lambda case: getattr(case, "name", case))
def test_the_claimed_range(op, spelling):
    x = samples(op)
    out = run(op, spelling, x)
    # defined inside its domain, except at its singular points (the poles of digamma)
    defined = out[~np.isin(x, [float(p) for p in op.gradient])] if out.shape == x.shape else out
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
                   for point in op.gradient]


@pytest.mark.parametrize("op, spelling, point", GRADIENT_POINTS,
                         ids=lambda case: getattr(case, "name", case))
def test_the_gradient_is_singular_at_the_claimed_points(op, spelling, point):
    function = function_of(spelling)
    x = tf.Variable(np.full(3 if op.form == "reduce" else 1, float(point), np.float32))
    with tf.GradientTape() as tape:
        y = function(x, SECOND) if op.form == "binary" else function(x)
    gradient = tape.gradient(y, x).numpy()
    assert not np.isfinite(gradient).all(), f"{spelling}'s gradient at {point}: {gradient}"


def test_numpy_ops_claim_no_gradient():
    assert not [op.name for op in optable.TABLE.by_name.values()
                if op.name.startswith("np.") and op.gradient]


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
