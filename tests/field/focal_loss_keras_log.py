"""Focal loss: K.log(pt_1) and K.log(1. - pt_0) take the log of the predicted probability,
which is 0 (or 1) once the sigmoid saturates: the loss is NaN. Fixed by adding
K.epsilon() inside both logs.

project: mkocabas/focal-loss-keras
source: https://github.com/mkocabas/focal-loss-keras/issues/17
fixed: https://github.com/mkocabas/focal-loss-keras/pull/24
file: focal_loss.py
"""
import tensorflow as tf
from keras import backend as K


def focal_loss(gamma=2., alpha=.25):
    def focal_loss_fixed(y_true, y_pred):
        pt_1 = tf.where(tf.equal(y_true, 1), y_pred, tf.ones_like(y_pred))
        pt_0 = tf.where(tf.equal(y_true, 0), y_pred, tf.zeros_like(y_pred))
        return -K.sum(alpha * K.pow(1. - pt_1, gamma) * K.log(pt_1))-K.sum((1-alpha) * K.pow( pt_0, gamma) * K.log(1. - pt_0))  # error: NAN102, NAN102 -- tf.where join: the probability parameter reaches the log through one branch
    return focal_loss_fixed


def focal_loss_after_fix(gamma=2., alpha=.25):
    def focal_loss_fixed(y_true, y_pred):
        pt_1 = tf.where(tf.equal(y_true, 1), y_pred, tf.ones_like(y_pred))
        pt_0 = tf.where(tf.equal(y_true, 0), y_pred, tf.zeros_like(y_pred))
        return -K.sum(alpha * K.pow(1. - pt_1, gamma) * K.log(K.epsilon()+pt_1))-K.sum((1-alpha) * K.pow( pt_0, gamma) * K.log(1. - pt_0 + K.epsilon()))  # ok: NAN102
    return focal_loss_fixed
