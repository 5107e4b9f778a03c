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

    # The walk asks get_attr_skipset(kind) for every object it visits; Keras means to keep each answer
    # in its global state, but reads it under another key than it writes it (saving_attr_skiplist_
    # vs saving_attr_skipset_), so each call builds a reference Layer and lists dir() of it again: a
    # tenth of a ResNet50 export. The answer depends on the kind alone, so during this walk it is
    # computed once per kind.
    computed = {}
    skipset = saving_lib.get_attr_skipset

    def once_per_kind(obj_type):
        if obj_type not in computed:
            computed[obj_type] = skipset(obj_type)
        return computed[obj_type]

    saving_lib.get_attr_skipset = once_per_kind
    try:
        saving_lib._save_state(model, weights_store=_Recorder(), assets_store=None, inner_path="",
                               visited_saveables=set())
    finally:
        saving_lib.get_attr_skipset = skipset
    return paths, why


def legacy_weight_paths(model, layers):
    """The same for Keras 2's `.h5` files, whose datasets are bound by order, as Keras' legacy loader
    binds them (keras/src/legacy/saving/legacy_h5_format.py, load_weights_from_hdf5_group): the file's
    layers that list weights go, in order, with the model's layers that have weights; within a layer
    the file's weight order is the layer's trainable then non-trainable weights (`_legacy_weights`);
    the file's `top_level_model_weights` are the model's own variables. `layers` is the file's
    [(layer group, [dataset paths in weight order])]. Mismatched counts raise Keras' ValueError."""
    from keras.src.legacy.saving import legacy_h5_format

    names = {}
    for n, t in model.state_dict(keep_vars=True).items():
        names.setdefault(id(t), []).append(n)
    paths, why = {}, {}

    def take(group, dataset_paths, variables, what):
        if len(dataset_paths) != len(variables):
            raise ValueError(f"Weight count mismatch for {what} ({group} in the save file): it expects "
                             f"{len(variables)} weight(s); the file has {len(dataset_paths)}")
        for path, var in zip(dataset_paths, variables):
            tensor = getattr(var, "_value", var)
            paths[path] = names.get(id(tensor))
            if paths[path] is None:
                why[path] = f"the model's {var.path} is not one of its parameters or buffers"

    top = [(g, p) for g, p in layers if g.rsplit("/", 1)[-1] == "top_level_model_weights"]
    saved = [(g, p) for g, p in layers if p and (g, p) not in top]
    filtered = [layer for layer in model.layers if legacy_h5_format._legacy_weights(layer)]
    if len(saved) != len(filtered):
        raise ValueError(f"Layer count mismatch when loading weights from file. Model expected {len(filtered)} "
                         f"layers, found {len(saved)} saved layers.")
    for k, ((group, dataset_paths), layer) in enumerate(zip(saved, filtered)):
        take(group, dataset_paths, legacy_h5_format._legacy_weights(layer), f"layer #{k} (named {layer.name})")
    for group, dataset_paths in top:
        own = [v for v in model._trainable_variables + model._non_trainable_variables if v in model.weights]
        take(group, dataset_paths, own, "the top-level model")
    return paths, why
