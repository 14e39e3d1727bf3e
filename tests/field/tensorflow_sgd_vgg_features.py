"""A user trains a single 1x1 convolution to reproduce the raw VGG16 feature maps, which
are unbounded relu outputs, with their mean squared error attached by add_loss. Plain SGD
at 1e-3 reaches an inf or NaN loss within a few epochs; a smaller rate only makes it rarer.
For a loss on that scale the step is too large.

project: tensorflow/tensorflow
source: https://github.com/tensorflow/tensorflow/issues/38796
"""
import numpy as np
import tensorflow as tf
from tensorflow.keras import Model
from tensorflow.keras.layers import *

backbone = tf.keras.applications.VGG16(include_top=False, input_shape=(300, 400, 3))
mimic = Conv2D(512, [1, 1])(backbone.output)
gap = tf.keras.losses.MSE(backbone.output, mimic)
student = Model(backbone.input, gap)
student.add_loss(gap)
student.compile(optimizer=tf.keras.optimizers.SGD(learning_rate=1e-3))  # miss: NAN301 -- learning rate vs data and loss scale: MSE of unbounded relu features
student.fit(np.ones([2, 300, 400, 3]), epochs=10)
