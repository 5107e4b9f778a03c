"""torch.nn.utils.rnn: PackedSequence, pack_padded_sequence / pad_packed_sequence, pack_sequence /
pad_sequence / unpad_sequence / unpack_sequence.

A PackedSequence here keeps what the packed form is made from: the padded batch, time-major
(T, B, *), in the batch's own order, and the lengths (a tensor: a graph input, or a constant). The
recurrent layers run on exactly that (ONNX sequence_lens), so a batch whose lengths are only known
when the model runs exports with both T and B symbolic. PyTorch sorts by length and unsorts again
(enforce_sorted=False); the outputs and final states it returns are in the batch's own order, which
is what is computed here without sorting. `data` and `batch_sizes` (the flat packed form) are computed
from the padded batch when read. With enforce_sorted=True PyTorch checks that lengths decrease: done
here when they are constants; lengths only known at run time are trusted."""
import torch
from torch import Tensor

__all__ = ["PackedSequence", "invert_permutation", "pack_padded_sequence", "pad_packed_sequence",
           "pad_sequence", "unpad_sequence", "pack_sequence", "unpack_sequence"]


def invert_permutation(permutation):
    if permutation is None:
        return None
    output = torch.empty_like(permutation)
    output.scatter_(0, permutation, torch.arange(0, permutation.numel(), device=permutation.device))
    return output


def _steps_mask(padded, lengths):
    # (T, B): step t of row b is part of the sequence.
    steps = torch.arange(padded.size(0), device=padded.device)
    return steps.unsqueeze(1) < lengths.unsqueeze(0)


# batch_sizes tensors handed out by PackedSequence.batch_sizes -> (the tensor, lengths, steps, sorted
# indices): PackedSequence(f(p.data), p.batch_sizes, ...) rebuilds the padded form from them.
_ORIGINS = {}


class PackedSequence:
    def __init__(self, data=None, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        origin = _ORIGINS.get(id(batch_sizes))
        if origin is None or origin[0] is not batch_sizes or not isinstance(data, Tensor):
            from torch._onnxify_support import unsupported
            self._padded = unsupported("torch.nn.utils.rnn.PackedSequence(data, batch_sizes, ...)",
                                       "a PackedSequence is rebuilt from flat data only with the batch_sizes of a "
                                       "packed sequence made by pack_padded_sequence or pack_sequence")
            self._lengths = self._padded
            self._sorted = None
            return
        _, lengths, steps, order = origin
        # The flat data are time-major over the batch sorted by length: scatter them back.
        order_t = order if order is not None else torch.arange(lengths.size(0), device=lengths.device)
        sorted_lengths = lengths.index_select(0, order_t)
        padded = data.new_zeros((steps, lengths.size(0)) + tuple(data.shape[1:]))
        mask = torch.arange(steps, device=data.device).unsqueeze(1) < sorted_lengths.unsqueeze(0)
        padded[mask] = data
        if sorted_indices is None:
            # PyTorch takes the data as they are: the batch stays in sorted order.
            self._padded, self._lengths, self._sorted = padded, sorted_lengths, None
        else:
            self._padded = padded.index_select(1, invert_permutation(sorted_indices))
            self._lengths = sorted_lengths.index_select(0, invert_permutation(sorted_indices))
            self._sorted = sorted_indices

    @classmethod
    def _from_padded(cls, padded, lengths, sorted_indices, unsorted_indices):
        p = cls.__new__(cls)
        p._padded = padded
        p._lengths = lengths
        p._sorted = sorted_indices
        return p

    @property
    def sorted_indices(self):
        return self._sorted

    @property
    def unsorted_indices(self):
        return invert_permutation(self._sorted)

    def _order(self):
        if self._sorted is not None:
            return self._sorted
        return torch.arange(self._lengths.size(0), device=self._lengths.device)

    @property
    def batch_sizes(self):
        mask = _steps_mask(self._padded, self._lengths)
        sizes = mask.sum(1)[:int(self._lengths.max())]
        _ORIGINS[id(sizes)] = (sizes, self._lengths, sizes.size(0), self._sorted)
        return sizes

    @property
    def data(self):
        order = self._order()
        padded = self._padded.index_select(1, order)
        mask = _steps_mask(padded, self._lengths.index_select(0, order))
        return padded[mask]

    def __iter__(self):
        return iter((self.data, self.batch_sizes, self.sorted_indices, self.unsorted_indices))

    def __getitem__(self, i):
        return (self.data, self.batch_sizes, self.sorted_indices, self.unsorted_indices)[i]

    def __len__(self):
        return 4

    def _same(self, padded):
        return PackedSequence._from_padded(padded, self._lengths, self._sorted, None)

    def to(self, *args, **kwargs):
        return self._same(self._padded.to(*args, **kwargs))

    def cuda(self, *args, **kwargs):
        return self

    def cpu(self, *args, **kwargs):
        return self

    def double(self):
        return self.to(dtype=torch.double)

    def float(self):
        return self.to(dtype=torch.float)

    def half(self):
        return self.to(dtype=torch.half)

    @property
    def is_cuda(self):
        return False

    def is_pinned(self):
        return False


def _as_lengths(lengths):
    if isinstance(lengths, Tensor):
        return lengths.to(torch.int64)
    return torch.as_tensor(lengths, dtype=torch.int64)


def _check_sorted(lengths):
    # PyTorch's check, where the lengths are known now (a graph input's are trusted).
    from torch._C import _nn
    if not _nn._onnxify_known(lengths):
        return
    values = lengths.tolist()
    if any(a < b for a, b in zip(values, values[1:])):
        raise RuntimeError("`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. "
                           "You can pass `enforce_sorted=False` to pack_padded_sequence and/or pack_sequence to "
                           "sidestep this requirement if you do not need ONNX exportability.")


def pack_padded_sequence(input, lengths, batch_first=False, enforce_sorted=True):
    lengths = _as_lengths(lengths)
    if enforce_sorted:
        _check_sorted(lengths)
        sorted_indices = None
    else:
        sorted_indices = torch.sort(lengths, descending=True)[1]
    padded = input.transpose(0, 1) if batch_first else input
    return PackedSequence._from_padded(padded, lengths, sorted_indices, None)


def pad_packed_sequence(sequence, batch_first=False, padding_value=0.0, total_length=None):
    padded, lengths = sequence._padded, sequence._lengths
    max_seq_length = int(lengths.max())
    steps = padded.size(0)
    if total_length is not None:
        if isinstance(max_seq_length, int) and total_length < max_seq_length:
            raise ValueError("Expected total_length to be at least the length of the longest sequence in input, "
                             f"but got total_length={total_length} and max sequence length being {max_seq_length}")
        max_seq_length = total_length
        extra = max(total_length - steps, 0)
        if not (isinstance(extra, int) and extra == 0):
            padded = torch.cat([padded, padded.new_zeros((extra,) + tuple(padded.shape[1:]))], 0)
    if not (isinstance(max_seq_length, int) and isinstance(steps, int) and max_seq_length == steps):
        padded = padded[:max_seq_length]
    mask = _steps_mask(padded, lengths)
    mask = mask.reshape(tuple(mask.shape) + (1,) * (padded.dim() - 2))
    padded = padded.masked_fill(~mask, padding_value)
    if batch_first:
        padded = padded.transpose(0, 1)
    return padded, lengths


def pad_sequence(sequences, batch_first=False, padding_value=0.0, padding_side="right"):
    if padding_side not in ("left", "right"):
        raise ValueError(f"Expected padding_side to be one of left or right, but got {padding_side}.")
    if isinstance(sequences, Tensor):
        # Rows of one tensor share their length: nothing to pad (also for a run-time row count).
        return sequences if batch_first else sequences.transpose(0, 1)
    max_len = max(s.size(0) for s in sequences)
    out = []
    for s in sequences:
        n = max_len - s.size(0)
        if isinstance(n, int) and n == 0:
            out.append(s)
            continue
        fill = torch.full((n,) + tuple(s.shape[1:]), padding_value, dtype=s.dtype, device=s.device)
        out.append(torch.cat([s, fill] if padding_side == "right" else [fill, s], 0))
    return torch.stack(out, 0 if batch_first else 1)


def unpad_sequence(padded_sequences, lengths, batch_first=False):
    if not batch_first:
        padded_sequences = padded_sequences.transpose(0, 1)
    return [padded_sequences[i][:int(length)] for i, length in enumerate(lengths)]


def pack_sequence(sequences, enforce_sorted=True):
    lengths = torch.as_tensor([v.size(0) for v in sequences])
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences):
    padded_sequences, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded_sequences, lengths, batch_first=True)
