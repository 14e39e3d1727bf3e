"""NAN201: RMSE as a loss has a NaN gradient exactly when the model fits."""
import tensorflow as tf


def rmse(y_true, y_pred):
    return tf.sqrt(tf.reduce_mean(tf.square(y_true - y_pred)))  # error: NAN201


def run():
    w = tf.Variable(2.0)
    x = tf.constant([1.0, 2.0])
    y = tf.constant([2.0, 4.0])  # w = 2 fits exactly
    with tf.GradientTape() as tape:
        loss = rmse(y, w * x)
    return {"loss": loss, "gradient": tape.gradient(loss, w)}
