"""DeepReg's local normalized cross-correlation loss gets each window's variance as a
difference of sums, sum(t^2) - mean(t) * sum(t). On a constant window the true value is 0,
yet rounding can leave it slightly negative (around -1e-5), so t_var * p_var + EPS can
reach 0 or go below it and the loss becomes inf or NaN. The merged fix clamps both variances
at 0 and raises EPS to 1e-5; it was reverted later by a follow-up PR as buggy, and the
fixed form below is written from the fix's description.

project: DeepRegNet/DeepReg
source: https://github.com/DeepRegNet/DeepReg/issues/690
fixed: https://github.com/DeepRegNet/DeepReg/pull/719
source: https://github.com/DeepRegNet/DeepReg/pull/732
file: deepreg/model/loss/image.py (LocalNormalizedCrossCorrelation3D.call)
"""
import tensorflow as tf

EPS = tf.keras.backend.epsilon()


class WindowedNCC(tf.keras.losses.Loss):
    def call(self, y_true, y_pred):
        if len(y_true.shape) == 4:
            y_true = tf.expand_dims(y_true, axis=4)
            y_pred = tf.expand_dims(y_pred, axis=4)

        box, box_volume = self.build_kernel(
            kernel_size=self.kernel_size, kernel_type=self.kernel_type, ch=y_true.shape[4])
        step = [1, 1, 1, 1, 1]

        fixed_sum = tf.nn.conv3d(y_true, filters=box, strides=step, padding="SAME")
        moving_sum = tf.nn.conv3d(y_pred, filters=box, strides=step, padding="SAME")
        fixed_sq_sum = tf.nn.conv3d(y_true * y_true, filters=box, strides=step, padding="SAME")
        moving_sq_sum = tf.nn.conv3d(y_pred * y_pred, filters=box, strides=step, padding="SAME")
        joint_sum = tf.nn.conv3d(y_true * y_pred, filters=box, strides=step, padding="SAME")

        fixed_mean = fixed_sum / box_volume
        moving_mean = moving_sum / box_volume

        covariance = joint_sum - moving_mean * fixed_sum
        fixed_var = fixed_sq_sum - fixed_mean * fixed_sum  # variance of y_true in the window
        moving_var = moving_sq_sum - moving_mean * moving_sum  # variance of y_pred in the window
        ratio = (covariance * covariance + EPS) / (fixed_var * moving_var + EPS)  # error: NAN101 (hand-computed variance: E[x^2] - E[x]^2 can round below 0 and cancel the epsilon)
        return tf.reduce_mean(ratio, axis=[1, 2, 3, 4])


def ratio_clamped(covariance, fixed_var, moving_var):
    # the fix as described: variances clamped at 0, epsilon raised to 1e-5
    fixed_var = tf.maximum(fixed_var, 0)
    moving_var = tf.maximum(moving_var, 0)
    return (covariance * covariance + 1e-5) / (fixed_var * moving_var + 1e-5)  # ok: NAN101
