"""A binary focal loss for image segmentation takes K.log(y_pred) of a sigmoid mask. When a
pixel's prediction saturates to 0 that log is -inf, and training produced a NaN loss. The
pull request puts a small epsilon inside the log.

project: maxvfischer/keras-image-segmentation-loss-functions
source: https://github.com/maxvfischer/keras-image-segmentation-loss-functions/pull/1
file: losses/binary_losses.py (binary_focal_loss)
"""
import tensorflow as tf
from tensorflow.keras import backend as K

SMOOTH = 1e-5


def pixel_focal(beta: float, gamma: float = 2.):
    def per_batch(y_true: tf.Tensor, y_pred: tf.Tensor) -> tf.Tensor:
        per_pixel = -(beta * y_true * (1 - y_pred) ** gamma * K.log(y_pred))  # error: NAN102
        return K.mean(per_pixel, axis=-1)
    return per_batch


def pixel_focal_smoothed(beta: float, gamma: float = 2.):
    def per_batch(y_true: tf.Tensor, y_pred: tf.Tensor) -> tf.Tensor:
        per_pixel = -(beta * y_true * (1 - y_pred) ** gamma * K.log(y_pred + SMOOTH))  # ok: NAN102
        return K.mean(per_pixel, axis=-1)
    return per_batch
