"""The IoU helper of a TF2 YOLOv4 port divides the overlap by the union of two boxes given
as centre and size. Two zero-size boxes, such as the padding rows of the label tensor, have
union 0, and the IoU loss gets 0/0 = NaN. While chasing the NaN the maintainers moved to
tf.math.divide_no_nan; a later pull request argued for an epsilon instead, since
divide_no_nan of a tiny but nonzero union still has huge gradients.

project: hunglc007/tensorflow-yolov4-tflite
source: https://github.com/hunglc007/tensorflow-yolov4-tflite/issues/130
source: https://github.com/hunglc007/tensorflow-yolov4-tflite/pull/140
file: core/utils.py (bbox_iou)
"""
import tensorflow as tf


def box_iou(first, second):
    first_area = first[..., 2] * first[..., 3]
    second_area = second[..., 2] * second[..., 3]

    first_half = first[..., 2:] * 0.5
    second_half = second[..., 2:] * 0.5
    first_corners = tf.concat([first[..., :2] - first_half, first[..., :2] + first_half], axis=-1)
    second_corners = tf.concat([second[..., :2] - second_half, second[..., :2] + second_half], axis=-1)

    top_left = tf.maximum(first_corners[..., :2], second_corners[..., :2])
    bottom_right = tf.minimum(first_corners[..., 2:], second_corners[..., 2:])
    overlap = tf.maximum(bottom_right - top_left, 0.0)
    overlap_area = overlap[..., 0] * overlap[..., 1]

    union = first_area + second_area - overlap_area
    return overlap_area / union  # error: NAN101 -- IoU union area: sum of box-area products minus the intersection


def box_iou_no_nan(overlap_area, union):
    return tf.math.divide_no_nan(overlap_area, union)  # ok: NAN101
