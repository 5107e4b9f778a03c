"""Keras 3 models from keras' unmodified installed source, on its torch backend (issue 30, first part):
a Keras model there is a torch.nn.Module whose variables are its parameters, so onnxify evaluates
keras' own layers, ops and applications with its torch prelude. Channels last, as Keras makes them.

The parameters' names hold Keras' layer names, which Keras numbers per process ("dense_3" after three
others); each builder starts from a cleared session so that names, and so the checkpoint's keys, are
those of a fresh process, whichever models were built before in it."""
import os

os.environ.setdefault("KERAS_BACKEND", "torch")  # before keras is imported, as Keras' documentation says

import keras  # noqa: E402
from keras import layers, ops  # noqa: E402


def sequential():
    """Sequential with a symbolic batch (Keras' shape arithmetic meets the None batch: object arrays)."""
    keras.backend.clear_session(free_memory=False)
    return keras.Sequential([
        keras.Input(shape=(32, 32, 3)),
        layers.Conv2D(8, 3, padding="same"),
        layers.BatchNormalization(),
        layers.ReLU(),
        layers.MaxPooling2D(2),
        layers.Conv2D(16, 3, strides=2, padding="valid", activation="relu"),
        layers.AveragePooling2D(2, padding="same"),
        layers.GlobalAveragePooling2D(),
        layers.Dense(10),
    ])


def padded_pool():
    """ResNetV2's stem: zero padding, then a max over values that can be negative, so the padding's
    zeros win where a window's values are all negative (ONNX Runtime's own optimizer folded such a
    Pad into the MaxPool, which ignores its padding, when a Transpose stood between them)."""
    keras.backend.clear_session(free_memory=False)
    inputs = keras.Input(shape=(32, 32, 3))
    x = layers.Conv2D(8, 3, strides=2)(inputs)
    x = layers.ZeroPadding2D(1)(x)
    return keras.Model(inputs, layers.MaxPooling2D(3, strides=2)(x))


def functional():
    """The Functional API: branches joined by Add and Concatenate, depthwise and separable convolutions,
    pooling, Dropout (inactive in inference), swish and a softmax head."""
    keras.backend.clear_session(free_memory=False)
    inputs = keras.Input(shape=(24, 24, 3))
    x = layers.Conv2D(8, 3, padding="same", activation="swish")(inputs)
    y = layers.DepthwiseConv2D(3, padding="same")(x)
    y = layers.BatchNormalization()(y)
    x = layers.Add()([x, y])
    z = layers.SeparableConv2D(8, 3, padding="same")(x)
    x = layers.Concatenate()([x, z])
    x = layers.MaxPooling2D(3, strides=2, padding="same")(x)
    x = layers.ZeroPadding2D(1)(x)
    x = layers.Conv2D(12, 3, activation="relu")(x)
    x = layers.GlobalMaxPooling2D()(x)
    x = layers.Dropout(0.5)(x)
    x = layers.Dense(16, activation="gelu")(x)
    x = layers.LayerNormalization()(x)
    outputs = layers.Dense(5, activation="softmax")(x)
    return keras.Model(inputs, outputs)


class Block(layers.Layer):
    def __init__(self, filters, **kwargs):
        super().__init__(**kwargs)
        self.conv = layers.Conv2D(filters, 3, padding="same")
        self.norm = layers.GroupNormalization(groups=2)
        self.skip = layers.Conv2D(filters, 1)

    def call(self, x):
        return ops.relu(self.norm(self.conv(x))) + self.skip(x)


class Subclassed(keras.Model):
    """A subclassed keras.Model with its own Layer, keras.ops in call() and a mean over space."""

    def __init__(self):
        super().__init__()
        self.block1 = Block(8)
        self.block2 = Block(8)
        self.head = layers.Dense(3)

    def call(self, inputs):
        x = self.block2(self.block1(inputs))
        return self.head(ops.mean(x, axis=(1, 2)))


def subclassed():
    keras.backend.clear_session(free_memory=False)
    m = Subclassed()
    m(ops.zeros((1, 20, 20, 3)))  # builds its variables, as Keras builds a subclassed model: by a call
    return m


def recurrent():
    """LSTM and GRU over a sequence of any length, with Keras' default initializers (the recurrent
    kernels' Orthogonal draws a QR of random values while the model is built)."""
    keras.backend.clear_session(free_memory=False)
    return keras.Sequential([
        keras.Input(shape=(None, 8)),
        layers.LSTM(6, return_sequences=True),
        layers.GRU(5),
        layers.Dense(2),
    ])


def mobilenet_v3_small():
    keras.backend.clear_session(free_memory=False)
    return keras.applications.MobileNetV3Small(weights=None, input_shape=(64, 64, 3), classes=10)


def resnet50():
    keras.backend.clear_session(free_memory=False)
    return keras.applications.ResNet50(weights=None, input_shape=(64, 64, 3), classes=10)


def randomize_batchnorm(model, g):
    """Moving statistics other than Keras' initial 0 and 1 (the harness's after_build, eager only), so
    that the checkpoint's values matter."""
    import torch
    for layer in model._flatten_layers(include_self=False, recursive=True):
        if isinstance(layer, layers.BatchNormalization):
            shape = tuple(layer.moving_mean.shape)
            layer.moving_mean.assign(torch.randn(shape, generator=g) * 0.1)
            layer.moving_variance.assign(torch.rand(shape, generator=g) + 0.5)


def save_keras(model, stem):
    """The whole model as keras.Model.save writes it (a zip of config.json and model.weights.h5)."""
    model.save(stem + ".keras")
    return stem + ".keras"


def save_weights_h5(model, stem):
    """The weights alone, as keras.Model.save_weights writes them (HDF5)."""
    model.save_weights(stem + ".weights.h5")
    return stem + ".weights.h5"


def save_keras2_h5(model, stem):
    """The weights in Keras 2's `.h5` layout, as tf.keras 2 wrote them (`save_weights("w.h5")`):
    layer_names and weight_names as fixed-length byte strings, layer_names split into chunks
    (layer_names0, layer_names1: Keras 2 splits lists over HDF5's 64 KiB header limit; forced here),
    each weight at LAYER/WEIGHT_NAME with Keras 2's ":0" names. Checked by Keras' own legacy loader:
    the model's weights are zeroed, read back from the file by keras' load_weights_from_hdf5_group,
    and must come back exactly."""
    import h5py
    import numpy as np
    from keras import ops
    from keras.src.legacy.saving import legacy_h5_format

    path = stem + ".keras2.h5"
    before = [ops.convert_to_numpy(v) for v in model.weights]
    with h5py.File(path, "w") as f:
        f.attrs["backend"] = b"tensorflow"
        f.attrs["keras_version"] = b"2.15.0"
        names = [layer.name.encode() for layer in model.layers]
        half = len(names) // 2
        f.attrs["layer_names0"] = np.array(names[:half], dtype="S")
        f.attrs["layer_names1"] = np.array(names[half:], dtype="S")
        for layer in model.layers:
            g = f.create_group(layer.name)
            weights = legacy_h5_format._legacy_weights(layer)
            weight_names = [f"{layer.name}/{w.name}:0".encode() for w in weights]
            g.attrs["weight_names"] = np.array(weight_names, dtype="S") if weights else np.zeros((0,))
            for name, w in zip(weight_names, weights):
                g.create_dataset(name.decode(), data=ops.convert_to_numpy(w))
    for v in model.weights:
        v.assign(np.zeros(v.shape, v.dtype))
    with h5py.File(path, "r") as f:
        legacy_h5_format.load_weights_from_hdf5_group(f, model)
    assert all(np.array_equal(a, ops.convert_to_numpy(v)) for a, v in zip(before, model.weights)), "Keras read back other values"
    return path
