"""YOLOv3 GIoU loss: iou = inter_area / union_area and the GIoU term divided by
enclose_area; for a zero-size predicted box against a zero (padding) label box both areas
are 0 and iou/giou are NaN.

project: YunYang1994/tensorflow-yolov3
source: https://github.com/YunYang1994/tensorflow-yolov3/issues/529
file: core/yolov3.py (YOLOV3.bbox_giou, YOLOV3.loss_layer)
"""
import tensorflow as tf


class YOLOV3(object):
    def bbox_giou(self, boxes1, boxes2):
        boxes1 = tf.concat([boxes1[..., :2] - boxes1[..., 2:] * 0.5,
                            boxes1[..., :2] + boxes1[..., 2:] * 0.5], axis=-1)
        boxes2 = tf.concat([boxes2[..., :2] - boxes2[..., 2:] * 0.5,
                            boxes2[..., :2] + boxes2[..., 2:] * 0.5], axis=-1)

        boxes1 = tf.concat([tf.minimum(boxes1[..., :2], boxes1[..., 2:]),
                            tf.maximum(boxes1[..., :2], boxes1[..., 2:])], axis=-1)
        boxes2 = tf.concat([tf.minimum(boxes2[..., :2], boxes2[..., 2:]),
                            tf.maximum(boxes2[..., :2], boxes2[..., 2:])], axis=-1)

        boxes1_area = (boxes1[..., 2] - boxes1[..., 0]) * (boxes1[..., 3] - boxes1[..., 1])
        boxes2_area = (boxes2[..., 2] - boxes2[..., 0]) * (boxes2[..., 3] - boxes2[..., 1])

        left_up = tf.maximum(boxes1[..., :2], boxes2[..., :2])
        right_down = tf.minimum(boxes1[..., 2:], boxes2[..., 2:])

        inter_section = tf.maximum(right_down - left_up, 0.0)
        inter_area = inter_section[..., 0] * inter_section[..., 1]
        union_area = boxes1_area + boxes2_area - inter_area
        iou = inter_area / union_area  # error: NAN101 -- IoU union area: sum of box-area products minus the intersection

        enclose_left_up = tf.minimum(boxes1[..., :2], boxes2[..., :2])
        enclose_right_down = tf.maximum(boxes1[..., 2:], boxes2[..., 2:])
        enclose = tf.maximum(enclose_right_down - enclose_left_up, 0.0)
        enclose_area = enclose[..., 0] * enclose[..., 1]
        giou = iou - 1.0 * (enclose_area - union_area) / enclose_area  # error: NAN101

        return giou

    def loss_layer(self, pred, label, respond_bbox, input_size):
        pred_xywh = pred[:, :, :, :, 0:4]
        label_xywh = label[:, :, :, :, 0:4]
        giou = tf.expand_dims(self.bbox_giou(pred_xywh, label_xywh), axis=-1)
        bbox_loss_scale = 2.0 - 1.0 * label_xywh[:, :, :, :, 2:3] * label_xywh[:, :, :, :, 3:4] / (input_size ** 2)
        giou_loss = respond_bbox * bbox_loss_scale * (1 - giou)
        return tf.reduce_mean(tf.reduce_sum(giou_loss, axis=[1, 2, 3, 4]))
