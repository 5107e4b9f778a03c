"""A tf.keras.Model written with TensorFlow ops between its Keras layers (the usual TensorFlow 2 model
code), with a Python `if` on a tensor in call(); its weights are Keras' own file (save_weights). The
same source runs in TensorFlow (bench/keras_tf/tf_code.py) and in onnxify (tf.keras is Keras 3 on its
torch backend there). make() and paths() as in tf_code.py."""
import tensorflow as tf


class KerasSubclass(tf.keras.Model):
    """A tf.keras.Model written with TensorFlow ops between Keras layers, and a Python `if` on a tensor
    in call() (its weights saved by Keras: save_weights)."""

    def __init__(self):
        super().__init__()
        self.conv = tf.keras.layers.Conv2D(8, 3, padding="same")
        self.norm = tf.keras.layers.BatchNormalization()
        self.dense = tf.keras.layers.Dense(4)

    def build(self, input_shape):
        # Every sublayer built up front (a first call would build them inside a data-dependent branch).
        self.conv.build(input_shape)
        self.norm.build(tuple(input_shape[:-1]) + (8,))
        self.dense.build((input_shape[0], 8))

    def call(self, x):
        x = tf.nn.relu(self.norm(self.conv(x), training=False))
        x = tf.reduce_mean(x, axis=[1, 2])
        if tf.reduce_sum(x) > 1.0:
            x = x * 2.0
        else:
            x = tf.nn.sigmoid(x)
        return tf.nn.softmax(self.dense(x))


MODELS = {"KerasSubclass": KerasSubclass}


def make(name):
    tf.random.set_seed(0)
    model = MODELS[name]()
    model.build((None, 12, 12, 3))
    return model


def paths(np):
    rng = np.random.default_rng(0)

    def batch(n, lo, hi):
        return rng.uniform(lo, hi, (n, 12, 12, 3)).astype(np.float32)

    return {"KerasSubclass": {"if": batch(3, 0.5, 1.0), "else": batch(1, -1.0, -0.5)}}
