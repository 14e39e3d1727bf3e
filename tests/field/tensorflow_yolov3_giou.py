"""The GIoU loss of a YOLOv3 implementation divides the intersection by the union, and the
GIoU correction by the area of the enclosing box. A predicted box of zero size matched
against a zero padding label has union 0 and enclosing area 0, so both the IoU and the
GIoU are 0/0 = NaN.

project: YunYang1994/tensorflow-yolov3
source: https://github.com/YunYang1994/tensorflow-yolov3/issues/529
file: core/yolov3.py (YOLOV3.bbox_giou, YOLOV3.loss_layer)
"""
import tensorflow as tf


class Detector(object):
    def giou(self, pred, true):
        # centre and size -> corners, then order each pair so min comes first
        pred_half = pred[..., 2:] * 0.5
        true_half = true[..., 2:] * 0.5
        pred = tf.concat([pred[..., :2] - pred_half, pred[..., :2] + pred_half], axis=-1)
        true = tf.concat([true[..., :2] - true_half, true[..., :2] + true_half], axis=-1)
        pred = tf.concat([tf.minimum(pred[..., :2], pred[..., 2:]),
                          tf.maximum(pred[..., :2], pred[..., 2:])], axis=-1)
        true = tf.concat([tf.minimum(true[..., :2], true[..., 2:]),
                          tf.maximum(true[..., :2], true[..., 2:])], axis=-1)

        pred_area = (pred[..., 2] - pred[..., 0]) * (pred[..., 3] - pred[..., 1])
        true_area = (true[..., 2] - true[..., 0]) * (true[..., 3] - true[..., 1])

        overlap = tf.maximum(
            tf.minimum(pred[..., 2:], true[..., 2:]) - tf.maximum(pred[..., :2], true[..., :2]), 0.0)
        overlap_area = overlap[..., 0] * overlap[..., 1]
        union = pred_area + true_area - overlap_area
        iou = overlap_area / union  # error: NAN101 -- IoU union area: sum of box-area products minus the intersection

        hull = tf.maximum(
            tf.maximum(pred[..., 2:], true[..., 2:]) - tf.minimum(pred[..., :2], true[..., :2]), 0.0)
        hull_area = hull[..., 0] * hull[..., 1]
        return iou - 1.0 * (hull_area - union) / hull_area  # error: NAN101

    def box_loss(self, pred, label, has_object, image_size):
        pred_box = pred[:, :, :, :, 0:4]
        true_box = label[:, :, :, :, 0:4]
        giou = tf.expand_dims(self.giou(pred_box, true_box), axis=-1)
        # small boxes weigh more: 2 - (relative area)
        size_weight = 2.0 - 1.0 * true_box[:, :, :, :, 2:3] * true_box[:, :, :, :, 3:4] / (image_size ** 2)
        per_box = has_object * size_weight * (1 - giou)
        return tf.reduce_mean(tf.reduce_sum(per_box, axis=[1, 2, 3, 4]))
