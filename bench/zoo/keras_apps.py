"""Keras 3's applications for the zoo (lib_keras.py), read by onnxify (`onnxify export
bench/zoo/keras_apps.py --model 'app("ResNet50", 64)'`) and built by eager Keras from this same file,
on Keras' torch backend (where a Keras model is a torch.nn.Module). Each build starts from a cleared
Keras session: parameter names hold Keras' per-process layer numbering, which must be a fresh
process's for the checkpoint's keys to be the ones onnxify's build gives."""
import os

os.environ.setdefault("KERAS_BACKEND", "torch")  # before keras is imported

import keras  # noqa: E402
from keras.src.applications import nasnet  # noqa: E402


def _nasnet_mobile(weights, input_shape, classes):
    # keras.applications.NASNetMobile raises on Keras' torch backend ("not available with the torch
    # backend at this time due to an outstanding bug"), the backend onnxify runs Keras on. The same
    # model is NASNet with NASNetMobile's arguments (its layer names and variable paths included, so
    # a NASNetMobile archive saved on TensorFlow binds); this is the workaround docs/limitations.md
    # gives users.
    return nasnet.NASNet(input_shape, penultimate_filters=1056, num_blocks=4, stem_block_filters=32,
                         skip_reduction=False, filter_multiplier=2, weights=weights, classes=classes,
                         default_size=224, name="nasnet_mobile")


# Applications keras refuses to build on its torch backend, by the function that builds the same model.
_REFUSED_ON_TORCH = {"NASNetMobile": _nasnet_mobile}


def app(name, size, classes=10):
    keras.backend.clear_session(free_memory=False)
    build = _REFUSED_ON_TORCH.get(name) or getattr(keras.applications, name)
    return build(weights=None, input_shape=(size, size, 3), classes=classes)
