"""torch.distributed.tensor: the types of distributed (sharded) tensors, for the isinstance checks
and placement lists library code holds (transformers' `is_dtensor`, tensor-parallel plans). An
export is one process with whole tensors: nothing is a DTensor, and distributing a tensor is refused."""
from torch.distributed.tensor.placement_types import Partial, Placement, Replicate, Shard  # noqa: F401


class DTensor:
    def __new__(cls, *args, **kwargs):
        raise NotImplementedError("torch.distributed.tensor.DTensor is not supported by onnxify (an export is one "
                                  "process holding whole tensors)")

    @staticmethod
    def from_local(*args, **kwargs):
        raise NotImplementedError("DTensor.from_local is not supported by onnxify (an export is one process holding "
                                  "whole tensors)")


def distribute_tensor(*args, **kwargs):
    raise NotImplementedError("torch.distributed.tensor.distribute_tensor is not supported by onnxify (an export is "
                              "one process holding whole tensors)")


def distribute_module(*args, **kwargs):
    raise NotImplementedError("torch.distributed.tensor.distribute_module is not supported by onnxify (an export is "
                              "one process holding whole tensors)")
