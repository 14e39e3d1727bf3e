"""darkflow's YOLOv2 loss has two overflow paths. Its sigmoid is written out by hand as
1 / (1 + exp(-x)), and for x below about -88 the exp overflows, so the gradient is inf/inf
= NaN. The box width and height are tf.sqrt(tf.exp(raw) * anchor / grid), and once the exp
underflows to 0 the square root's gradient is infinite. The pull request switches to
tf.nn.sigmoid, repairs the square root and clips the exp argument.

The loss below is a shortened retelling: it keeps the decoding of the network output and
the weighted squared error, with the same ops, and drops bookkeeping that does not touch
either hazard.

project: thtrieu/darkflow
source: https://github.com/thtrieu/darkflow/pull/482
source: https://github.com/thtrieu/darkflow/issues/381
file: darkflow/net/yolov2/train.py (expit_tensor, loss)
"""
import numpy as np
import tensorflow as tf


def squash(t):
    return 1. / (1. + tf.exp(-t))  # error: NAN104 -- hand-written sigmoid in a helper, exp(-x) overflows into the division


def loss(self, net_out):
    cfg = self.meta
    grid_h, grid_w, _ = cfg['out_size']
    n_anchor, n_class = cfg['num'], cfg['classes']
    n_coord = cfg['coords']
    cells = grid_h * grid_w
    per_box = n_coord + 1 + n_class

    gt_prob = tf.placeholder(tf.float32, [None, cells, n_anchor, n_class])
    gt_conf = tf.placeholder(tf.float32, [None, cells, n_anchor])
    gt_coord = tf.placeholder(tf.float32, [None, cells, n_anchor, n_coord])
    gt_area = tf.placeholder(tf.float32, [None, cells, n_anchor])
    gt_topleft = tf.placeholder(tf.float32, [None, cells, n_anchor, 2])
    gt_bottomright = tf.placeholder(tf.float32, [None, cells, n_anchor, 2])

    grid_out = tf.reshape(net_out, [-1, grid_h, grid_w, n_anchor, per_box])
    raw_box = tf.reshape(grid_out[..., :n_coord], [-1, cells, n_anchor, n_coord])
    anchor_size = np.reshape(cfg['anchors'], [1, 1, n_anchor, 2])
    grid_size = np.reshape([grid_w, grid_h], [1, 1, 1, 2])
    center = squash(raw_box[:, :, :, 0:2])
    size_root = tf.sqrt(tf.exp(raw_box[:, :, :, 2:4]) * anchor_size / grid_size)  # error: NAN201 (sqrt of exp times constants: exp underflows to 0, the catalog's sqrt(exp(v)) through a product)

    objectness = tf.reshape(squash(grid_out[..., n_coord]), [-1, cells, n_anchor, 1])
    class_prob = tf.reshape(tf.nn.softmax(grid_out[..., n_coord + 1:]), [-1, cells, n_anchor, n_class])
    predicted = tf.concat([center, size_root, objectness, class_prob], 3)

    # overlap of each predicted box with its cell's ground truth, to pick the responsible box
    extent = tf.pow(size_root, 2) * grid_size
    half = extent * .5
    overlap = tf.maximum(tf.minimum(center + half, gt_bottomright) - tf.maximum(center - half, gt_topleft), 0.0)
    overlap_area = tf.multiply(overlap[..., 0], overlap[..., 1])
    pred_area = extent[..., 0] * extent[..., 1]
    iou = tf.truediv(overlap_area, gt_area + pred_area - overlap_area)
    responsible = tf.to_float(tf.equal(iou, tf.reduce_max(iou, [2], True)))
    conf_target = tf.multiply(responsible, gt_conf)

    conf_weight = float(cfg['noobject_scale']) * (1. - conf_target) + float(cfg['object_scale']) * conf_target
    per_anchor = tf.expand_dims(conf_target, -1)
    coord_weight = float(cfg['coord_scale']) * tf.concat(4 * [per_anchor], 3)
    class_weight = float(cfg['class_scale']) * tf.concat(n_class * [per_anchor], 3)

    target = tf.concat([gt_coord, tf.expand_dims(conf_target, 3), gt_prob], 3)
    weight = tf.concat([coord_weight, tf.expand_dims(conf_weight, 3), class_weight], 3)
    squared = tf.multiply(tf.pow(predicted - target, 2), weight)
    per_image = tf.reduce_sum(tf.reshape(squared, [-1, cells * n_anchor * per_box]), 1)
    self.loss = .5 * tf.reduce_mean(per_image)
