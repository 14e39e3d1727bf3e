"""CohenKappa metric: result() normalizes the accumulated confusion matrix by its own sum;
after reset_states() the matrix is all zeros, 0/0 is NaN and the metric returns NaN.
Upstream guarded the final division with tf.cond(tf.math.is_nan(denominator), ...).

project: tensorflow/addons
source: https://github.com/tensorflow/addons/pull/721
file: tensorflow_addons/metrics/cohens_kappa.py (CohenKappa.result)
"""
import tensorflow as tf


class CohenKappa(tf.keras.metrics.Metric):
    def __init__(self, num_classes, name="cohen_kappa", weightage=None, dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.weightage = weightage
        self.num_classes = num_classes
        self.conf_mtx = self.add_weight(
            "conf_mtx",
            shape=(self.num_classes, self.num_classes),
            initializer=tf.keras.initializers.zeros,
            dtype=tf.float32,
        )

    def result(self):
        nb_ratings = tf.shape(self.conf_mtx)[0]
        weight_mtx = tf.ones([nb_ratings, nb_ratings], dtype=tf.float32)
        if self.weightage is None:
            diagonal = tf.zeros([nb_ratings], dtype=tf.float32)
            weight_mtx = tf.linalg.set_diag(weight_mtx, diagonal=diagonal)
        weight_mtx = tf.cast(weight_mtx, dtype=self.dtype)

        actual_ratings_hist = tf.reduce_sum(self.conf_mtx, axis=1)
        pred_ratings_hist = tf.reduce_sum(self.conf_mtx, axis=0)
        out_prod = pred_ratings_hist[..., None] * actual_ratings_hist[None, ...]

        conf_mtx = self.conf_mtx / tf.reduce_sum(self.conf_mtx)  # error: NAN101 -- metric state as zero source: add_weight(initializer=zeros) after reset
        out_prod = out_prod / tf.reduce_sum(out_prod)  # error: NAN101 (the same zero state)
        conf_mtx = tf.cast(conf_mtx, dtype=self.dtype)
        out_prod = tf.cast(out_prod, dtype=self.dtype)

        numerator = tf.reduce_sum(conf_mtx * weight_mtx)
        denominator = tf.reduce_sum(out_prod * weight_mtx)
        kp = 1 - (numerator / denominator)  # error: NAN101 (the division upstream guarded)
        return kp

    def result_fixed(self, numerator, denominator):
        return tf.cond(
            tf.math.is_nan(denominator),
            true_fn=lambda: 0.0,
            false_fn=lambda: 1 - (numerator / denominator),
        )
