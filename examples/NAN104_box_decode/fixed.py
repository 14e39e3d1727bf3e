"""NAN104: a box decoder exponentiates the raw size codes of a detection head; a code above
~88.7 makes exp(tw) inf in float32, the box corners center +- size / 2 are +-inf, and the box
loss and its gradient are inf and NaN."""
import tensorflow as tf


def decode(rel_codes, anchors):
    ycenter_a, xcenter_a, ha, wa = tf.unstack(tf.transpose(anchors))
    ty, tx, th, tw = tf.unstack(tf.transpose(rel_codes))
    h, w = tf.exp(tf.minimum(th, 4.135)) * ha, tf.exp(tf.minimum(tw, 4.135)) * wa  # fixed: NAN104
    ycenter, xcenter = ty * ha + ycenter_a, tx * wa + xcenter_a
    return tf.stack([ycenter - h / 2., xcenter - w / 2., ycenter + h / 2., xcenter + w / 2.], 1)


BOX_CODERS = {"faster_rcnn": decode}  # the coder is chosen by name in a config


def run():
    rel_codes = tf.Variable([[0.1, -0.2, 0.3, 95.0], [0.0, 0.0, 0.0, 0.0]])  # one diverged code
    anchors = tf.constant([[8.0, 8.0, 16.0, 16.0], [24.0, 24.0, 16.0, 16.0]])
    target = tf.constant([[0.0, 0.0, 16.0, 16.0], [16.0, 16.0, 32.0, 32.0]])
    with tf.GradientTape() as tape:
        boxes = BOX_CODERS.get("faster_rcnn")(rel_codes, anchors)  # as a config names it
        loss = tf.reduce_mean(tf.abs(boxes - target))
    return {"boxes": boxes, "loss": loss, "gradient": tape.gradient(loss, rel_codes)}
