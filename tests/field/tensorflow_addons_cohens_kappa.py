"""A Cohen's kappa metric keeps a confusion matrix in a state variable and, in result(),
divides it (and the outer product of its marginals) by its own total. Right after
reset_states() every count is 0, so those divisions are 0/0 and the metric reports NaN.
Upstream wrapped the last division in a tf.cond on tf.math.is_nan(denominator).

project: tensorflow/addons
source: https://github.com/tensorflow/addons/pull/721
file: tensorflow_addons/metrics/cohens_kappa.py (CohenKappa.result)
"""
import tensorflow as tf


class KappaScore(tf.keras.metrics.Metric):
    def __init__(self, n_labels, name="kappa_score", weighting=None, dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.n_labels = n_labels
        self.weighting = weighting
        self.counts = self.add_weight(
            "counts",
            shape=(self.n_labels, self.n_labels),
            initializer=tf.keras.initializers.zeros,
            dtype=tf.float32,
        )

    def result(self):
        n = tf.shape(self.counts)[0]
        penalty = tf.ones([n, n], dtype=tf.float32)
        if self.weighting is None:
            # unweighted kappa: agreement on the diagonal costs nothing
            penalty = tf.linalg.set_diag(penalty, diagonal=tf.zeros([n], dtype=tf.float32))
        penalty = tf.cast(penalty, dtype=self.dtype)

        true_marginal = tf.reduce_sum(self.counts, axis=1)
        pred_marginal = tf.reduce_sum(self.counts, axis=0)
        chance = pred_marginal[..., None] * true_marginal[None, ...]

        observed = self.counts / tf.reduce_sum(self.counts)  # error: NAN101 -- metric state as zero source: add_weight(initializer=zeros) after reset
        chance = chance / tf.reduce_sum(chance)  # error: NAN101 (the same zero state)
        observed = tf.cast(observed, dtype=self.dtype)
        chance = tf.cast(chance, dtype=self.dtype)

        disagreement = tf.reduce_sum(observed * penalty)
        expected = tf.reduce_sum(chance * penalty)
        return 1 - (disagreement / expected)  # error: NAN101 (the division upstream guarded)

    def result_guarded(self, disagreement, expected):
        return tf.cond(
            tf.math.is_nan(expected),
            true_fn=lambda: 0.0,
            false_fn=lambda: 1 - (disagreement / expected),
        )
