"""torch.utils: the parts model code imports (hooks, checkpoint, model_zoo, data, _pytree)."""
from torch.utils import hooks, checkpoint, model_zoo, data, _pytree  # noqa: F401


def __getattr__(name):
    from torch._onnxify_support import missing
    return missing("torch.utils", name)
