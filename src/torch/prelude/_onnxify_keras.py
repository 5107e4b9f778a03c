"""Which of a Keras model's parameters each dataset of a Keras weights file (.keras, .weights.h5) holds.

Keras names a variable in its files by the path its own saving code walks to it ("layers/conv2d/vars/0"):
attribute names, layer names and per-container counters, decided by keras/src/saving/saving_lib.py. So
that walk is not written again here: Keras' own `_save_state` runs, unmodified, over the model with a
store that writes nothing and notes, for each path, the torch tensor behind the variable saved there.
The checkpoint binder (src/torch/weights_bind.cpp) then gives each state_dict entry its dataset.
"""


def weight_paths(model):
    """{dataset path: the state_dict names of its tensor (one tensor may have several: a sub-model's
    parameters are also the outer model's), or None with the reason in `why[path]`}, and `why`."""
    from keras.src.saving import saving_lib

    names = {}
    for n, t in model.state_dict(keep_vars=True).items():
        names.setdefault(id(t), []).append(n)
    paths, why = {}, {}

    class _Recorder(saving_lib.H5IOStore):
        # A write-mode store in Keras' eyes (its isinstance check), holding no file.
        def __init__(self):
            self.mode = "w"
            self._entry = ""

        def __bool__(self):
            return True

        def make(self, path, metadata=None):
            self._entry = path
            return self

        def __setitem__(self, key, value):
            path = (self._entry + "/" if self._entry else "") + "vars/" + str(key)
            tensor = getattr(value, "_value", value)  # a KerasVariable holds its torch Parameter there
            name = names.get(id(tensor))
            paths[path] = name
            if name is None:
                why[path] = ("Keras saves a value computed from the model's variables there, not a variable "
                             f"({type(value).__name__})")

    saving_lib._save_state(model, weights_store=_Recorder(), assets_store=None, inner_path="",
                           visited_saveables=set())
    return paths, why
