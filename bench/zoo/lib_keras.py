"""keras: every model of `keras.applications` (Keras 3, torch backend), random weights, BatchNorm moving
statistics randomized (after_build), saved as a `.keras` archive by keras.Model.save (save), built in this file's namespace (keras_apps.py's `app(NAME, SIZE)`,
10 classes). Input: inputs = float32[N,S,S,3] (channels last, Keras' default), the batch symbolic, at
batch 2 and 1; S = 64, or the least size the architecture takes above it (Inception 75, Xception 71),
or the one NASNet insists on without pretrained weights (224 Mobile, 331 Large). Nothing is held out
(the hold-out rule names transformers and timm architectures)."""
import os

from common import candidate

HERE = os.path.dirname(os.path.abspath(__file__))
SIZES = {"InceptionV3": 75, "InceptionResNetV2": 75, "Xception": 71, "NASNetMobile": 224, "NASNetLarge": 331}


def list_names():
    os.environ["KERAS_BACKEND"] = "torch"
    import keras
    import torch
    names = sorted(n for n in dir(keras.applications) if n[:1].isupper())
    return {"names": names, "total": len(names), "held_out": 0,
            "versions": {"keras": keras.__version__, "torch": torch.__version__}}


def candidates(name):
    s = SIZES.get(name, 64)
    return [candidate(f"app({name!r}, {s})", {"inputs": f"float32[N,{s},{s},3]"}, [{"N": 2}, {"N": 1}],
                      source=os.path.join(HERE, "keras_apps.py"), note=f"{s}x{s}, batch symbolic", calibrate=False)]


def after_build(model, g):
    """Moving statistics other than Keras' initial 0 and 1, so that the checkpoint's matter (the e2e
    tests' own randomize_batchnorm)."""
    import sys
    models = os.path.join(os.path.dirname(os.path.dirname(HERE)), "tests", "torch", "models")
    if models not in sys.path:
        sys.path.insert(0, models)
    from keras_models import randomize_batchnorm
    randomize_batchnorm(model, g)


def float64_model(build):
    """The model built with Keras' float type float64 (the float64 reference of a file outside the
    tolerance: Keras' layers cast to their own dtype, so converting a float32 model changes nothing)."""
    import keras
    old = keras.config.floatx()
    keras.config.set_floatx("float64")
    try:
        return build()
    finally:
        keras.config.set_floatx(old)


def save(model, stem):
    """The weights as Keras users have them: keras.Model.save's .keras archive (its model.weights.h5 read by
    onnxify's HDF5 reader and bound by Keras' own variable paths)."""
    model.save(stem + ".keras")
    return stem + ".keras"


def load(model, path):
    model.load_weights(path)
