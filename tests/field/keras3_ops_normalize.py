"""Keras 3 ops.normalize(order=2) takes rsqrt of the sum of squares and clamps the result
with minimum(inv_norm, 1/epsilon): the clamp fixes the value but not the gradient, because
rsqrt(0) = inf is already in the graph, and a zero vector gets NaN gradients. Fixed by
clamping the squared norm before the rsqrt (maximum(square_sum, epsilon ** 2)).

project: keras-team/keras
source: https://github.com/keras-team/keras/issues/23075
fixed: https://github.com/keras-team/keras/pull/23093
file: keras/src/ops/nn.py (_normalize)
"""
from keras.src import backend


def _normalize(x, axis=-1, order=2, epsilon=None):
    if epsilon is None:
        epsilon = backend.epsilon()
    if 2 == order:
        # A special case: L2 normalization with `x * rsqrt(...)`
        # instead of `x / sqrt(...)`
        square_sum = backend.numpy.sum(backend.numpy.square(x), axis=axis, keepdims=True)
        inv_norm = backend.math.rsqrt(square_sum)  # miss: NAN201 -- unknown input: rsqrt is a root now, but x is a parameter nobody in the file passes, so nothing shows it can be a zero vector
        inv_norm = backend.numpy.minimum(inv_norm, 1.0 / epsilon)
        return x * inv_norm
    norm = backend.linalg.norm(x, ord=order, axis=axis, keepdims=True)
    denom = backend.numpy.maximum(norm, epsilon)
    return backend.numpy.divide(x, denom)


def _normalize_fixed(x, axis=-1, epsilon=1e-7):
    square_sum = backend.numpy.sum(backend.numpy.square(x), axis=axis, keepdims=True)
    inv_norm = backend.math.rsqrt(backend.numpy.maximum(square_sum, epsilon ** 2))  # ok: NAN201
    return x * inv_norm
