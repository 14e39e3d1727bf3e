"""A Keras focal loss takes K.log(pt_1) and K.log(1. - pt_0), where pt_1 and pt_0 are the
predicted probability chosen by tf.where. Once the sigmoid saturates, that probability is
exactly 0 (or 1) and the loss is NaN. The fix puts K.epsilon() inside each log.

project: mkocabas/focal-loss-keras
source: https://github.com/mkocabas/focal-loss-keras/issues/17
fixed: https://github.com/mkocabas/focal-loss-keras/pull/24
file: focal_loss.py
"""
import tensorflow as tf
from keras import backend as K


def make_focal(gamma=2., alpha=.25):
    def focal(y_true, y_pred):
        p_pos = tf.where(tf.equal(y_true, 1), y_pred, tf.ones_like(y_pred))
        p_neg = tf.where(tf.equal(y_true, 0), y_pred, tf.zeros_like(y_pred))
        positives = K.sum(alpha * K.pow(1. - p_pos, gamma) * K.log(p_pos))  # error: NAN102 -- tf.where join: the probability parameter reaches the log through one branch
        negatives = K.sum((1 - alpha) * K.pow(p_neg, gamma) * K.log(1. - p_neg))  # error: NAN102 -- tf.where join: the probability parameter reaches the log through one branch
        return -positives - negatives
    return focal


def make_focal_with_epsilon(gamma=2., alpha=.25):
    def focal(y_true, y_pred):
        p_pos = tf.where(tf.equal(y_true, 1), y_pred, tf.ones_like(y_pred))
        p_neg = tf.where(tf.equal(y_true, 0), y_pred, tf.zeros_like(y_pred))
        positives = K.sum(alpha * K.pow(1. - p_pos, gamma) * K.log(K.epsilon() + p_pos))  # ok: NAN102
        negatives = K.sum((1 - alpha) * K.pow(p_neg, gamma) * K.log(1. - p_neg + K.epsilon()))  # ok: NAN102
        return -positives - negatives
    return focal
