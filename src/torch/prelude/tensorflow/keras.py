"""tf.keras is Keras 3 (as in TensorFlow 2.16 and later), here on its torch backend."""

import sys

import keras

sys.modules[__name__] = keras
