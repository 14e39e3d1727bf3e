"""darkflow YOLOv2 loss: the hand-written sigmoid expit_tensor = 1 / (1 + exp(-x)) overflows
for x < -88 (its gradient is inf/inf = NaN), and the box size is tf.sqrt(tf.exp(raw)), whose
gradient is NaN once exp underflows to 0. The PR replaces expit_tensor with tf.nn.sigmoid,
fixes the sqrt and clips the exp input.

project: thtrieu/darkflow
source: https://github.com/thtrieu/darkflow/pull/482
source: https://github.com/thtrieu/darkflow/issues/381
file: darkflow/net/yolov2/train.py (expit_tensor, loss)
"""
import numpy as np
import tensorflow as tf


def expit_tensor(x):
    return 1. / (1. + tf.exp(-x))  # error: NAN104 -- hand-written sigmoid in a helper, exp(-x) overflows into the division


def loss(self, net_out):
    # meta
    m = self.meta
    sprob = float(m['class_scale'])
    sconf = float(m['object_scale'])
    snoob = float(m['noobject_scale'])
    scoor = float(m['coord_scale'])
    H, W, _ = m['out_size']
    B, C = m['num'], m['classes']
    HW = H * W # number of grid cells
    anchors = m['anchors']
    bbox_params = m['coords']

    size1 = [None, HW, B, C]
    size2 = [None, HW, B]

    _probs = tf.placeholder(tf.float32, size1)
    _confs = tf.placeholder(tf.float32, size2)
    _coord = tf.placeholder(tf.float32, size2 + [bbox_params])
    _proid = tf.placeholder(tf.float32, size1)
    _areas = tf.placeholder(tf.float32, size2)
    _upleft = tf.placeholder(tf.float32, size2 + [2])
    _botright = tf.placeholder(tf.float32, size2 + [2])

    net_out_reshape = tf.reshape(net_out, [-1, H, W, B, (bbox_params + 1 + C)])
    coords = net_out_reshape[:, :, :, :, :bbox_params]
    coords = tf.reshape(coords, [-1, H*W, B, bbox_params])
    adjusted_coords_xy = expit_tensor(coords[:,:,:,0:2])
    adjusted_coords_wh = tf.sqrt(tf.exp(coords[:,:,:,2:4]) * np.reshape(anchors, [1, 1, B, 2]) / np.reshape([W, H], [1, 1, 1, 2]))  # error: NAN201 (sqrt of exp times constants: exp underflows to 0, the catalog's sqrt(exp(v)) through a product)
    coords = tf.concat([adjusted_coords_xy, adjusted_coords_wh], 3)

    adjusted_c = expit_tensor(net_out_reshape[:, :, :, :, bbox_params])
    adjusted_c = tf.reshape(adjusted_c, [-1, H*W, B, 1])

    adjusted_prob = tf.nn.softmax(net_out_reshape[:, :, :, :, (bbox_params+1):])
    adjusted_prob = tf.reshape(adjusted_prob, [-1, H*W, B, C])

    adjusted_net_out = tf.concat([adjusted_coords_xy, adjusted_coords_wh, adjusted_c, adjusted_prob], 3)

    wh = tf.pow(coords[:,:,:,2:4], 2) * np.reshape([W, H], [1, 1, 1, 2])
    area_pred = wh[:,:,:,0] * wh[:,:,:,1]
    centers = coords[:,:,:,0:2]
    floor = centers - (wh * .5)
    ceil  = centers + (wh * .5)

    intersect_upleft   = tf.maximum(floor, _upleft)
    intersect_botright = tf.minimum(ceil , _botright)
    intersect_wh = intersect_botright - intersect_upleft
    intersect_wh = tf.maximum(intersect_wh, 0.0)
    intersect = tf.multiply(intersect_wh[:,:,:,0], intersect_wh[:,:,:,1])

    iou = tf.truediv(intersect, _areas + area_pred - intersect)
    best_box = tf.equal(iou, tf.reduce_max(iou, [2], True))
    best_box = tf.to_float(best_box)
    confs = tf.multiply(best_box, _confs)

    conid = snoob * (1. - confs) + sconf * confs
    weight_coo = tf.concat(4 * [tf.expand_dims(confs, -1)], 3)
    cooid = scoor * weight_coo
    weight_pro = tf.concat(C * [tf.expand_dims(confs, -1)], 3)
    proid = sprob * weight_pro

    true = tf.concat([_coord, tf.expand_dims(confs, 3), _probs ], 3)
    wght = tf.concat([cooid, tf.expand_dims(conid, 3), proid ], 3)

    loss = tf.pow(adjusted_net_out - true, 2)
    loss = tf.multiply(loss, wght)
    loss = tf.reshape(loss, [-1, H*W*B*(bbox_params + 1 + C)])
    loss = tf.reduce_sum(loss, 1)
    self.loss = .5 * tf.reduce_mean(loss)
