"""RNN, LSTM, GRU and their cells (PyTorch 2.14's constructors, attribute and parameter names, checks and
messages). The layers call torch._C._nn._onnxify_rnn: one composite `rnn` node per layer
(src/torch/ops_rnn.cpp), which the lowering makes ONNX RNN/LSTM/GRU or a Scan per target. Initial
states that are not given stay absent (zeros, as PyTorch makes them). A PackedSequence input
(torch.nn.utils.rnn) runs on its padded form with its lengths: PyTorch's packed semantics, in the
batch's own order (PyTorch sorts and unsorts; the results are the same). Dropout between layers is
training-only and not applied. The cells are PyTorch's formulas in tensor ops."""
import math
import numbers
import warnings

import torch
from torch import Tensor
from torch._C import _nn
from torch.nn import functional as F
from torch.nn import init
from torch.nn.modules.module import Module
from torch.nn.parameter import Parameter

__all__ = ["RNNBase", "RNN", "LSTM", "GRU", "RNNCellBase", "RNNCell", "LSTMCell", "GRUCell"]


def _packed():
    from torch.nn.utils.rnn import PackedSequence
    return PackedSequence


class RNNBase(Module):
    __constants__ = ["mode", "input_size", "hidden_size", "num_layers", "bias", "batch_first", "dropout",
                     "bidirectional", "proj_size"]

    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, proj_size=0, device=None, dtype=None):
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        num_directions = 2 if bidirectional else 1

        if (not isinstance(dropout, numbers.Number) or not 0 <= dropout <= 1 or isinstance(dropout, bool)):
            raise ValueError("dropout should be a number in range [0, 1] representing the probability of an "
                             "element being zeroed")
        if dropout > 0 and num_layers == 1:
            warnings.warn("dropout option adds dropout after all but last recurrent layer, so non-zero dropout "
                          f"expects num_layers greater than 1, but got dropout={dropout} and num_layers={num_layers}")
        if not isinstance(hidden_size, int):
            raise TypeError(f"hidden_size should be of type int, got: {type(hidden_size).__name__}")
        if hidden_size <= 0:
            raise ValueError("hidden_size must be greater than zero")
        if num_layers <= 0:
            raise ValueError("num_layers must be greater than zero")
        if proj_size < 0:
            raise ValueError("proj_size should be a positive integer or zero to disable projections")
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")

        if mode == "LSTM":
            gate_size = 4 * hidden_size
        elif mode == "GRU":
            gate_size = 3 * hidden_size
        elif mode == "RNN_TANH" or mode == "RNN_RELU":
            gate_size = hidden_size
        else:
            raise ValueError("Unrecognized RNN mode: " + mode)

        self._flat_weights_names = []
        self._all_weights = []
        for layer in range(num_layers):
            for direction in range(num_directions):
                real_hidden_size = proj_size if proj_size > 0 else hidden_size
                layer_input_size = input_size if layer == 0 else real_hidden_size * num_directions
                w_ih = Parameter(torch.empty((gate_size, layer_input_size), **factory_kwargs))
                w_hh = Parameter(torch.empty((gate_size, real_hidden_size), **factory_kwargs))
                b_ih = Parameter(torch.empty(gate_size, **factory_kwargs))
                b_hh = Parameter(torch.empty(gate_size, **factory_kwargs))
                if proj_size == 0:
                    layer_params = (w_ih, w_hh, b_ih, b_hh) if bias else (w_ih, w_hh)
                else:
                    w_hr = Parameter(torch.empty((proj_size, hidden_size), **factory_kwargs))
                    layer_params = (w_ih, w_hh, b_ih, b_hh, w_hr) if bias else (w_ih, w_hh, w_hr)
                suffix = "_reverse" if direction == 1 else ""
                param_names = ["weight_ih_l{}{}", "weight_hh_l{}{}"]
                if bias:
                    param_names += ["bias_ih_l{}{}", "bias_hh_l{}{}"]
                if proj_size > 0:
                    param_names += ["weight_hr_l{}{}"]
                param_names = [x.format(layer, suffix) for x in param_names]
                for name, param in zip(param_names, layer_params):
                    setattr(self, name, param)
                self._flat_weights_names.extend(param_names)
                self._all_weights.append(param_names)
        self.reset_parameters()

    # The weights as the module holds them now (a checkpoint or a user may replace them).
    @property
    def _flat_weights(self):
        return [getattr(self, wn) if hasattr(self, wn) else None for wn in self._flat_weights_names]

    def _init_flat_weights(self):
        pass

    def flatten_parameters(self):
        # cuDNN's weight buffer: nothing to do in an export.
        pass

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    @property
    def all_weights(self):
        return [[getattr(self, weight) for weight in weights] for weights in self._all_weights]

    def extra_repr(self):
        s = "{input_size}, {hidden_size}"
        if self.proj_size != 0:
            s += ", proj_size={proj_size}"
        if self.num_layers != 1:
            s += ", num_layers={num_layers}"
        if self.bias is not True:
            s += ", bias={bias}"
        if self.batch_first is not False:
            s += ", batch_first={batch_first}"
        if self.dropout != 0:
            s += ", dropout={dropout}"
        if self.bidirectional is not False:
            s += ", bidirectional={bidirectional}"
        return s.format(**self.__dict__)

    def check_input(self, input, batch_sizes):
        if input.dtype != self._flat_weights[0].dtype:
            raise ValueError(f"input must have the type {self._flat_weights[0].dtype}, got type {input.dtype}")
        expected_input_dim = 2 if batch_sizes is not None else 3
        if input.dim() != expected_input_dim:
            raise RuntimeError(f"input must have {expected_input_dim} dimensions, got {input.dim()}")
        if isinstance(input.size(-1), int) and self.input_size != input.size(-1):
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected {self.input_size}, "
                               f"got {input.size(-1)}")

    def check_hidden_size(self, hx, expected_hidden_size, msg="Expected hidden size {}, got {}"):
        got = tuple(hx.size())
        if len(got) != len(expected_hidden_size) or any(
                isinstance(a, int) and isinstance(b, int) and a != b for a, b in zip(got, expected_hidden_size)):
            raise RuntimeError(msg.format(expected_hidden_size, list(hx.size())))

    def _hidden_size(self, input, batch, real_hidden=None):
        num_directions = 2 if self.bidirectional else 1
        h = real_hidden if real_hidden is not None else (self.proj_size if self.proj_size > 0 else self.hidden_size)
        return (self.num_layers * num_directions, batch, h)

    # The shared forward: (output, h_n, c_n); `input` may be a PackedSequence.
    def _run(self, input, hx, cx):
        PackedSequence = _packed()
        lengths = None
        batch_first = self.batch_first
        if isinstance(input, PackedSequence):
            lengths = input._lengths
            padded = input._padded  # (T, B, *) in the batch's own order
            batch_first = False
            is_batched = True
            data_for_checks = padded
            batch = padded.size(1)
        else:
            if input.dim() not in (2, 3):
                raise ValueError(f"{type(self).__name__}: Expected input to be 2D or 3D, got {input.dim()}D "
                                 "tensor instead")
            is_batched = input.dim() == 3
            batch_dim = 0 if self.batch_first else 1
            if not is_batched:
                input = input.unsqueeze(batch_dim)
            padded = input
            data_for_checks = input
            batch = input.size(0) if self.batch_first else input.size(1)
        if hx is not None:
            if not is_batched:
                if hx.dim() != 2:
                    raise RuntimeError(f"For unbatched 2-D input, hx should also be 2-D but got {hx.dim()}-D tensor")
                hx = hx.unsqueeze(1)
                if cx is not None:
                    if cx.dim() != 2:
                        raise RuntimeError(
                            f"For unbatched 2-D input, hx and cx should also be 2-D but got ({hx.dim()}-D, "
                            f"{cx.dim()}-D) tensors")
                    cx = cx.unsqueeze(1)
            elif hx.dim() != 3:
                if cx is not None:
                    raise RuntimeError(f"For batched 3-D input, hx and cx should also be 3-D but got ({hx.dim()}-D, "
                                       f"{cx.dim()}-D) tensors")
                raise RuntimeError(f"For batched 3-D input, hx should also be 3-D but got {hx.dim()}-D tensor")
        self.check_input(data_for_checks, None)
        if hx is not None:
            self.check_hidden_size(hx, self._hidden_size(input, batch),
                                   "Expected hidden[0] size {}, got {}" if cx is not None else
                                   "Expected hidden size {}, got {}")
        if cx is not None:
            self.check_hidden_size(cx, self._hidden_size(input, batch, self.hidden_size),
                                   "Expected hidden[1] size {}, got {}")
        output, h_n, c_n = _nn._onnxify_rnn(padded, hx, cx, self._flat_weights, lengths, self.mode, self.bias,
                                            self.proj_size > 0, self.num_layers, self.bidirectional, batch_first)
        if lengths is not None:
            output = PackedSequence._from_padded(output, lengths, input.sorted_indices, input.unsorted_indices)
        elif not is_batched:
            output = output.squeeze(0 if self.batch_first else 1)
            h_n = h_n.squeeze(1)
            if c_n is not None:
                c_n = c_n.squeeze(1)
        return output, h_n, c_n


class RNN(RNNBase):
    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        if len(args) > 3:
            self.nonlinearity = args[3]
            args = args[:3] + args[4:]
        else:
            self.nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if self.nonlinearity == "tanh":
            mode = "RNN_TANH"
        elif self.nonlinearity == "relu":
            mode = "RNN_RELU"
        else:
            raise ValueError(f"Unknown nonlinearity '{self.nonlinearity}'. Select from 'tanh' or 'relu'.")
        super().__init__(mode, *args, **kwargs)

    def forward(self, input, hx=None):
        output, h_n, _ = self._run(input, hx, None)
        return output, h_n


class LSTM(RNNBase):
    def __init__(self, *args, **kwargs):
        super().__init__("LSTM", *args, **kwargs)

    def forward(self, input, hx=None):
        h0 = c0 = None
        if hx is not None:
            if not isinstance(hx, (tuple, list)) or len(hx) != 2:
                raise RuntimeError("lstm expects two hidden states")
            h0, c0 = hx
        output, h_n, c_n = self._run(input, h0, c0)
        return output, (h_n, c_n)


class GRU(RNNBase):
    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)

    def forward(self, input, hx=None):
        output, h_n, _ = self._run(input, hx, None)
        return output, h_n


# ---- cells ---------------------------------------------------------------------------------------

class RNNCellBase(Module):
    __constants__ = ["input_size", "hidden_size", "bias"]

    def __init__(self, input_size, hidden_size, bias, num_chunks, device=None, dtype=None):
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        self.weight_ih = Parameter(torch.empty((num_chunks * hidden_size, input_size), **factory_kwargs))
        self.weight_hh = Parameter(torch.empty((num_chunks * hidden_size, hidden_size), **factory_kwargs))
        if bias:
            self.bias_ih = Parameter(torch.empty(num_chunks * hidden_size, **factory_kwargs))
            self.bias_hh = Parameter(torch.empty(num_chunks * hidden_size, **factory_kwargs))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def extra_repr(self):
        s = "{input_size}, {hidden_size}"
        if "bias" in self.__dict__ and self.bias is not True:
            s += ", bias={bias}"
        if "nonlinearity" in self.__dict__ and self.nonlinearity != "tanh":
            s += ", nonlinearity={nonlinearity}"
        return s.format(**self.__dict__)

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _batch(self, input, hx, name):
        if input.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected input to be 1D or 2D, got {input.dim()}D instead")
        if hx is not None and hx.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected hidden to be 1D or 2D, got {hx.dim()}D instead")
        is_batched = input.dim() == 2
        if not is_batched:
            input = input.unsqueeze(0)
        if hx is None:
            hx = torch.zeros(input.size(0), self.hidden_size, dtype=input.dtype, device=input.device)
        elif not is_batched:
            hx = hx.unsqueeze(0)
        return input, hx, is_batched

    def _gates(self, input, hx):
        return F.linear(input, self.weight_ih, self.bias_ih), F.linear(hx, self.weight_hh, self.bias_hh)


class RNNCell(RNNCellBase):
    __constants__ = ["input_size", "hidden_size", "bias", "nonlinearity"]

    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=1, device=device, dtype=dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input, hx=None):
        input, hx, is_batched = self._batch(input, hx, "RNNCell")
        gi, gh = self._gates(input, hx)
        if self.nonlinearity == "tanh":
            ret = torch.tanh(gi + gh)
        elif self.nonlinearity == "relu":
            ret = torch.relu(gi + gh)
        else:
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        return ret if is_batched else ret.squeeze(0)


class LSTMCell(RNNCellBase):
    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=4, device=device, dtype=dtype)

    def forward(self, input, hx=None):
        if input.dim() not in (1, 2):
            raise ValueError(f"LSTMCell: Expected input to be 1D or 2D, got {input.dim()}D instead")
        if hx is not None:
            for idx, value in enumerate(hx):
                if value.dim() not in (1, 2):
                    raise ValueError(f"LSTMCell: Expected hx[{idx}] to be 1D or 2D, got {value.dim()}D instead")
        is_batched = input.dim() == 2
        if not is_batched:
            input = input.unsqueeze(0)
        if hx is None:
            zeros = torch.zeros(input.size(0), self.hidden_size, dtype=input.dtype, device=input.device)
            hx = (zeros, zeros)
        else:
            hx = (hx[0].unsqueeze(0), hx[1].unsqueeze(0)) if not is_batched else hx
        h, c = hx
        gi, gh = self._gates(input, h)
        i, f, g, o = (gi + gh).chunk(4, 1)
        c2 = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
        h2 = torch.sigmoid(o) * torch.tanh(c2)
        if not is_batched:
            return h2.squeeze(0), c2.squeeze(0)
        return h2, c2


class GRUCell(RNNCellBase):
    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=3, device=device, dtype=dtype)

    def forward(self, input, hx=None):
        input, hx, is_batched = self._batch(input, hx, "GRUCell")
        gi, gh = self._gates(input, hx)
        i_r, i_z, i_n = gi.chunk(3, 1)
        h_r, h_z, h_n = gh.chunk(3, 1)
        r = torch.sigmoid(i_r + h_r)
        z = torch.sigmoid(i_z + h_z)
        n = torch.tanh(i_n + r * h_n)
        ret = (1 - z) * n + z * hx
        return ret if is_batched else ret.squeeze(0)
