"""torch.utils.model_zoo: downloads are not possible; weights come from --weights."""
from torch.hub import load_state_dict_from_url  # noqa: F401

load_url = load_state_dict_from_url


def __getattr__(name):
    from torch._onnxify_support import missing
    return missing("torch.utils.model_zoo", name)
