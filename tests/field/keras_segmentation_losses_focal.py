"""Binary focal loss for segmentation: K.log(y_pred) of a sigmoid mask is -inf once a
pixel saturates to 0; the loss went NaN. The PR adds an epsilon inside the log.

project: maxvfischer/keras-image-segmentation-loss-functions
source: https://github.com/maxvfischer/keras-image-segmentation-loss-functions/pull/1
file: losses/binary_losses.py (binary_focal_loss)
"""
import tensorflow as tf
from tensorflow.keras import backend as K

epsilon = 1e-5


def binary_focal_loss(beta: float, gamma: float = 2.):
    def loss(y_true: tf.Tensor, y_pred: tf.Tensor) -> tf.Tensor:
        f_loss = beta * (1 - y_pred) ** gamma * y_true * K.log(y_pred)  # error: NAN102
        f_loss = -f_loss
        return K.mean(f_loss, axis=-1)
    return loss


def binary_focal_loss_fixed(beta: float, gamma: float = 2.):
    def loss(y_true: tf.Tensor, y_pred: tf.Tensor) -> tf.Tensor:
        f_loss = beta * (1 - y_pred) ** gamma * y_true * K.log(y_pred + epsilon)  # ok: NAN102
        return -K.mean(f_loss, axis=-1)
    return loss
