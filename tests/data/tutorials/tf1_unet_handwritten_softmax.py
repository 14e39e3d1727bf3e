"""A TF1 U-Net for segmentation with a hand-written per-pixel softmax over the channel axis
and a hand-written cross-entropy; conv kernels from truncated_normal(stddev=sqrt(2/n)),
images decoded from PNG and fed as they are."""
import numpy as np
import tensorflow as tf

N_CLASS = 2


def weight_variable(shape, stddev=0.1):
    return tf.Variable(tf.truncated_normal(shape, stddev=stddev))


def bias_variable(shape):
    return tf.Variable(tf.constant(0.1, shape=shape))


def conv2d(x, W):
    return tf.nn.conv2d(x, W, strides=[1, 1, 1, 1], padding="VALID")


def pixel_wise_softmax(output_map):
    exponential_map = tf.exp(output_map)
    sum_exp = tf.reduce_sum(exponential_map, 3, keep_dims=True)
    tensor_sum_exp = tf.tile(sum_exp, tf.stack([1, 1, 1, tf.shape(output_map)[3]]))
    return tf.div(exponential_map, tensor_sum_exp)


def create_conv_net(x, layers=3, features_root=16, filter_size=3):
    in_node = x
    channels = 1
    for layer in range(layers):
        features = 2 ** layer * features_root
        stddev = np.sqrt(2 / (filter_size ** 2 * features))
        w1 = weight_variable([filter_size, filter_size, channels, features], stddev)
        w2 = weight_variable([filter_size, filter_size, features, features], stddev)
        b1 = bias_variable([features])
        b2 = bias_variable([features])
        conv1 = tf.nn.relu(conv2d(in_node, w1) + b1)
        in_node = tf.nn.relu(conv2d(conv1, w2) + b2)
        channels = features
    weight = weight_variable([1, 1, channels, N_CLASS], stddev)
    return conv2d(in_node, weight)


def read_image(path):
    return tf.cast(tf.image.decode_png(tf.read_file(path), channels=1), tf.float32)


x = tf.placeholder(tf.float32, [None, None, None, 1])
y = tf.placeholder(tf.float32, [None, None, None, N_CLASS])
logits = create_conv_net(x)
predicter = pixel_wise_softmax(logits)
loss = -tf.reduce_mean(y * tf.log(tf.clip_by_value(predicter, 1e-10, 1.0)))
optimizer = tf.train.MomentumOptimizer(learning_rate=0.2, momentum=0.2).minimize(loss)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    image = sess.run(read_image("train/0001.png"))
    mask = np.load("train/0001_mask.npy")
    for step in range(1000):
        sess.run(optimizer, feed_dict={x: image[None], y: mask[None]})
