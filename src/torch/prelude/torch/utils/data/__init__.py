"""torch.utils.data: datasets and loaders, for modules that define them next to a model. Nothing
is ever loaded during conversion. The classes are generic as in PyTorch (`Dataset[T_co]`,
`Sampler[List[int]]`), since library code subscripts them in class statements."""
from typing import Generic, TypeVar

T_co = TypeVar("T_co", covariant=True)


class Dataset(Generic[T_co]):
    def __getitem__(self, index):
        raise NotImplementedError

    def __add__(self, other):
        return ConcatDataset([self, other])


class IterableDataset(Dataset):
    def __iter__(self):
        raise NotImplementedError


class TensorDataset(Dataset):
    def __init__(self, *tensors):
        self.tensors = tensors


class ConcatDataset(Dataset):
    def __init__(self, datasets):
        self.datasets = list(datasets)


class Subset(Dataset):
    def __init__(self, dataset, indices):
        self.dataset = dataset
        self.indices = indices


class Sampler(Generic[T_co]):
    def __init__(self, data_source=None):
        pass


class SequentialSampler(Sampler):
    pass


class RandomSampler(Sampler):
    pass


class BatchSampler(Sampler):
    pass


class DataLoader(Generic[T_co]):
    def __init__(self, dataset, *args, **kwargs):
        self.dataset = dataset


def default_collate(batch):
    return batch


def get_worker_info():
    return None


def random_split(dataset, lengths, generator=None):
    raise RuntimeError("onnxify: random_split is not available during conversion")


def __getattr__(name):
    from torch._onnxify_support import missing
    return missing("torch.utils.data", name)
