"""DeepReg local normalized cross-correlation: the window variances are computed as
E[t^2]-style differences, t2_sum - t_avg * t_sum; for a constant window the exact value is 0
but rounding makes it slightly negative (~-1e-5), so t_var * p_var + EPS can be 0 or negative
and the loss is inf/NaN. The fix clips the variances at 0 and raises EPS to 1e-5 (PR 719,
merged, later reverted by PR 732 as buggy; the fixed form below follows its description).

project: DeepRegNet/DeepReg
source: https://github.com/DeepRegNet/DeepReg/issues/690
fixed: https://github.com/DeepRegNet/DeepReg/pull/719
source: https://github.com/DeepRegNet/DeepReg/pull/732
file: deepreg/model/loss/image.py (LocalNormalizedCrossCorrelation3D.call)
"""
import tensorflow as tf

EPS = tf.keras.backend.epsilon()


class LocalNormalizedCrossCorrelation3D(tf.keras.losses.Loss):
    def call(self, y_true, y_pred):
        if len(y_true.shape) == 4:
            y_true = tf.expand_dims(y_true, axis=4)
            y_pred = tf.expand_dims(y_pred, axis=4)

        filters, kernel_vol = self.build_kernel(
            kernel_size=self.kernel_size,
            kernel_type=self.kernel_type,
            ch=y_true.shape[4],
        )
        strides = [1, 1, 1, 1, 1]
        padding = "SAME"

        t2 = y_true * y_true
        p2 = y_pred * y_pred
        tp = y_true * y_pred

        t_sum = tf.nn.conv3d(y_true, filters=filters, strides=strides, padding=padding)
        p_sum = tf.nn.conv3d(y_pred, filters=filters, strides=strides, padding=padding)
        t2_sum = tf.nn.conv3d(t2, filters=filters, strides=strides, padding=padding)
        p2_sum = tf.nn.conv3d(p2, filters=filters, strides=strides, padding=padding)
        tp_sum = tf.nn.conv3d(tp, filters=filters, strides=strides, padding=padding)

        t_avg = t_sum / kernel_vol
        p_avg = p_sum / kernel_vol

        cross = tp_sum - p_avg * t_sum
        t_var = t2_sum - t_avg * t_sum  # std[t] ** 2
        p_var = p2_sum - p_avg * p_sum  # std[p] ** 2
        ncc = (cross * cross + EPS) / (t_var * p_var + EPS)  # error: NAN101 (hand-computed variance: E[x^2] - E[x]^2 can round below 0 and cancel the epsilon)
        return tf.reduce_mean(ncc, axis=[1, 2, 3, 4])


def ncc_fixed(cross, t_var, p_var):
    # as described in the fix: clip the variances to 0 and use EPS = 1e-5
    t_var = tf.maximum(t_var, 0)
    p_var = tf.maximum(p_var, 0)
    return (cross * cross + 1e-5) / (t_var * p_var + 1e-5)  # ok: NAN101
