"""nanlint: find the TensorFlow/Keras code that makes training produce NaN or Inf."""

__version__ = "0.1.0"
