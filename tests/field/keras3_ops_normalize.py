"""In Keras 3, ops.normalize with order=2 multiplies by rsqrt of the sum of squares and then
caps that factor with minimum(factor, 1/epsilon). The cap repairs the forward value only:
rsqrt(0) = inf is already part of the graph, so a zero vector receives NaN gradients. The fix
clamps the squared norm from below (maximum(sum_of_squares, epsilon ** 2)) before the rsqrt.

project: keras-team/keras
source: https://github.com/keras-team/keras/issues/23075
fixed: https://github.com/keras-team/keras/pull/23093
file: keras/src/ops/nn.py (_normalize)
"""
from keras.src import backend


def normalize_along(x, axis=-1, order=2, epsilon=None):
    eps = backend.epsilon() if epsilon is None else epsilon
    if order != 2:
        magnitude = backend.linalg.norm(x, ord=order, axis=axis, keepdims=True)
        return backend.numpy.divide(x, backend.numpy.maximum(magnitude, eps))
    # the L2 case multiplies by an inverse square root rather than dividing by a square root
    energy = backend.numpy.sum(backend.numpy.square(x), axis=axis, keepdims=True)
    scale = backend.math.rsqrt(energy)  # miss: NAN201 -- unknown input: rsqrt is a root now, but x is a parameter nobody in the file passes, so nothing shows it can be a zero vector
    scale = backend.numpy.minimum(scale, 1.0 / eps)
    return x * scale


def normalize_l2_clamped(x, axis=-1, epsilon=1e-7):
    energy = backend.numpy.sum(backend.numpy.square(x), axis=axis, keepdims=True)
    scale = backend.math.rsqrt(backend.numpy.maximum(energy, epsilon ** 2))  # ok: NAN201
    return x * scale
