"""torch.utils.hooks.RemovableHandle: what register_*_hook returns."""


class RemovableHandle:
    next_id = 0

    def __init__(self, hooks_dict, *args, **kwargs):
        self.hooks_dict_ref = hooks_dict
        self.id = RemovableHandle.next_id
        RemovableHandle.next_id += 1

    def remove(self):
        d = self.hooks_dict_ref
        if d is not None and self.id in d:
            del d[self.id]

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


def unserializable_hook(f):
    return f


def warn_if_has_hooks(tensor):
    pass


def __getattr__(name):
    from torch._onnxify_support import missing
    return missing("torch.utils.hooks", name)
