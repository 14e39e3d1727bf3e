"""YOLOv4 (TF2): bbox_iou divides inter_area by union_area, which is 0 for two zero-size
boxes (padding entries of the label boxes), giving 0/0 = NaN in the IoU loss; the
maintainers switched to tf.math.divide_no_nan while hunting the NaN (a later PR proposed an
epsilon instead, because divide_no_nan of a tiny continuous union still has huge gradients).

project: hunglc007/tensorflow-yolov4-tflite
source: https://github.com/hunglc007/tensorflow-yolov4-tflite/issues/130
source: https://github.com/hunglc007/tensorflow-yolov4-tflite/pull/140
file: core/utils.py (bbox_iou)
"""
import tensorflow as tf


def bbox_iou(bboxes1, bboxes2):
    bboxes1_area = bboxes1[..., 2] * bboxes1[..., 3]
    bboxes2_area = bboxes2[..., 2] * bboxes2[..., 3]

    bboxes1_coor = tf.concat(
        [
            bboxes1[..., :2] - bboxes1[..., 2:] * 0.5,
            bboxes1[..., :2] + bboxes1[..., 2:] * 0.5,
        ],
        axis=-1,
    )
    bboxes2_coor = tf.concat(
        [
            bboxes2[..., :2] - bboxes2[..., 2:] * 0.5,
            bboxes2[..., :2] + bboxes2[..., 2:] * 0.5,
        ],
        axis=-1,
    )

    left_up = tf.maximum(bboxes1_coor[..., :2], bboxes2_coor[..., :2])
    right_down = tf.minimum(bboxes1_coor[..., 2:], bboxes2_coor[..., 2:])

    inter_section = tf.maximum(right_down - left_up, 0.0)
    inter_area = inter_section[..., 0] * inter_section[..., 1]

    union_area = bboxes1_area + bboxes2_area - inter_area

    iou = inter_area / union_area  # error: NAN101 -- IoU union area: sum of box-area products minus the intersection

    return iou


def bbox_iou_divide_no_nan(inter_area, union_area):
    return tf.math.divide_no_nan(inter_area, union_area)  # ok: NAN101
