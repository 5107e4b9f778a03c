from enum import Enum
from functools import partial
from dataclasses import dataclass, field
from typing import Any, Callable, Dict
@dataclass
class Weights:
    url: str
    transforms: Callable[..., Any]
    meta: Dict[str, Any] = field(default_factory=dict)
class Transform:
    def __init__(self, crop_size, resize_size=256): self.crop, self.resize = crop_size, resize_size
    def __repr__(self): return f"Transform(crop={self.crop}, resize={self.resize})"
_COMMON_META = {"min_size": (1, 1), "categories": ["cat", "dog"]}
class WeightsEnum(Enum):
    @classmethod
    def verify(cls, obj):
        if obj is not None:
            if type(obj) is str:
                obj = cls[obj.replace(cls.__name__ + ".", "")]
            elif not isinstance(obj, cls):
                raise TypeError(f"Invalid Weight class provided; expected {cls.__name__} but received {obj.__class__.__name__}.")
        return obj
    def __getattr__(self, name):
        if name in ("url", "transforms", "meta"):
            return getattr(self.value, name)
        raise AttributeError(name)
class NetWeights(WeightsEnum):
    V1 = Weights("https://x/v1.pth", partial(Transform, crop_size=224), meta={**_COMMON_META, "acc": 76.1})
    V2 = Weights("https://x/v2.pth", partial(Transform, crop_size=224, resize_size=232), meta={**_COMMON_META, "acc": 80.8})
    DEFAULT = V2
print(list(NetWeights), NetWeights.DEFAULT is NetWeights.V2, NetWeights.V1.url, NetWeights.V2.transforms())
print(NetWeights.verify("NetWeights.V1"), NetWeights.verify(NetWeights.V2).meta["acc"], NetWeights.verify(None))
try:
    NetWeights.verify(3)
except TypeError as e:
    print(e)
print(sorted(NetWeights.__members__), NetWeights["V1"].meta["categories"])
