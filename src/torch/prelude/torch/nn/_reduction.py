"""torch.nn._reduction: the reduction-string helpers custom losses call (get_enum, legacy_get_string)."""
from torch.nn._functional_loss import _Reduction

get_enum = _Reduction.get_enum
legacy_get_string = _Reduction.legacy_get_string
