"""Object Detection API, Faster R-CNN box coder: _decode exponentiates the raw size codes
tw, th from a conv layer, tf.exp(tw) * wa; tw > 88 gives inf boxes and then NaN through
back-propagation. The PR bounds the exponent: tf.exp(tf.minimum(tw, UPPER_BOUND)).

project: tensorflow/models
source: https://github.com/tensorflow/models/pull/7233
file: research/object_detection/box_coders/faster_rcnn_box_coder.py (FasterRcnnBoxCoder._decode)
"""
import tensorflow as tf

from object_detection.core import box_coder
from object_detection.core import box_list


class FasterRcnnBoxCoder(box_coder.BoxCoder):
    def _decode(self, rel_codes, anchors):
        ycenter_a, xcenter_a, ha, wa = anchors.get_center_coordinates_and_sizes()

        ty, tx, th, tw = tf.unstack(tf.transpose(rel_codes))
        if self._scale_factors:
            ty /= self._scale_factors[0]
            tx /= self._scale_factors[1]
            th /= self._scale_factors[2]
            tw /= self._scale_factors[3]
        w = tf.exp(tw) * wa  # error: NAN104
        h = tf.exp(th) * ha  # error: NAN104
        ycenter = ty * ha + ycenter_a
        xcenter = tx * wa + xcenter_a
        ymin = ycenter - h / 2.
        xmin = xcenter - w / 2.
        ymax = ycenter + h / 2.
        xmax = xcenter + w / 2.
        return box_list.BoxList(tf.transpose(tf.stack([ymin, xmin, ymax, xmax])))

    def _decode_fixed(self, tw, th, wa, ha):
        # Avoid INF in exp and w,h below. We set 80 as a upper_bound since tf.exp(89) yields INF.
        UPPER_BOUND = 80
        w = tf.exp(tf.minimum(tw, UPPER_BOUND)) * wa  # ok: NAN104
        h = tf.exp(tf.minimum(th, UPPER_BOUND)) * ha  # ok: NAN104
        return w, h
