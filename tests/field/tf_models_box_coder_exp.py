"""The Faster R-CNN box coder of the Object Detection API decodes box sizes as
exp(code) * anchor size, where the code is the raw output of a conv layer. A code above
about 88 makes exp overflow to inf, the decoded boxes are inf, and back-propagation turns
them into NaN. The pull request caps the code before the exp.

project: tensorflow/models
source: https://github.com/tensorflow/models/pull/7233
file: research/object_detection/box_coders/faster_rcnn_box_coder.py (FasterRcnnBoxCoder._decode)
"""
import tensorflow as tf

from object_detection.core import box_coder
from object_detection.core import box_list


class CenterSizeCoder(box_coder.BoxCoder):
    def _decode(self, rel_codes, anchors):
        anchor_cy, anchor_cx, anchor_h, anchor_w = anchors.get_center_coordinates_and_sizes()

        dy, dx, dh, dw = tf.unstack(tf.transpose(rel_codes))
        if self._scale_factors:
            dy /= self._scale_factors[0]
            dx /= self._scale_factors[1]
            dh /= self._scale_factors[2]
            dw /= self._scale_factors[3]
        width = tf.exp(dw) * anchor_w  # error: NAN104
        height = tf.exp(dh) * anchor_h  # error: NAN104
        cy = dy * anchor_h + anchor_cy
        cx = dx * anchor_w + anchor_cx
        corners = [cy - height / 2., cx - width / 2., cy + height / 2., cx + width / 2.]
        return box_list.BoxList(tf.transpose(tf.stack(corners)))

    def _decode_capped(self, dw, dh, anchor_w, anchor_h):
        cap = 80  # exp(89) is already inf in float32; 80 leaves room
        width = tf.exp(tf.minimum(dw, cap)) * anchor_w  # ok: NAN104
        height = tf.exp(tf.minimum(dh, cap)) * anchor_h  # ok: NAN104
        return width, height
