"""Recurrent models for tests/torch/e2e/test_rnn.py: nn.RNN / LSTM / GRU with their options, packed
sequences, the cells, and the usual small models built from them. Each forward returns every output
flattened (output, h_n[, c_n]) so all of them are compared with PyTorch."""
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pack_sequence, pad_sequence


class Recurrent(nn.Module):
    """getattr(nn, kind)(**kwargs) called as layer(x) or layer(x, h0) / layer(x, (h0, c0))."""

    def __init__(self, kind, **kwargs):
        super().__init__()
        self.kind = kind
        self.layer = getattr(nn, kind)(**kwargs)

    def forward(self, x, h0=None, c0=None):
        if h0 is None:
            out, h = self.layer(x)
        elif self.kind == "LSTM":
            out, h = self.layer(x, (h0, c0))
        else:
            out, h = self.layer(x, h0)
        if self.kind == "LSTM":
            return out, h[0], h[1]
        return out, h


class Packed(nn.Module):
    """pack_padded_sequence -> layer -> pad_packed_sequence, lengths an input."""

    def __init__(self, kind, enforce_sorted=False, batch_first=False, total_length=None, padding_value=0.0,
                 with_h0=False, **kwargs):
        super().__init__()
        self.kind = kind
        self.layer = getattr(nn, kind)(batch_first=batch_first, **kwargs)
        self.enforce_sorted = enforce_sorted
        self.batch_first = batch_first
        self.total_length = total_length
        self.padding_value = padding_value
        self.with_h0 = with_h0

    def forward(self, x, lengths):
        packed = pack_padded_sequence(x, lengths, batch_first=self.batch_first, enforce_sorted=self.enforce_sorted)
        hx = None
        if self.with_h0:
            layers = self.layer.num_layers * (2 if self.layer.bidirectional else 1)
            batch = x.size(0) if self.batch_first else x.size(1)
            h0 = torch.ones(layers, batch, self.layer.hidden_size) * 0.5
            hx = (h0, -h0) if self.kind == "LSTM" else h0
        out, h = self.layer(packed, hx)
        padded, out_lengths = pad_packed_sequence(out, batch_first=self.batch_first,
                                                  padding_value=self.padding_value, total_length=self.total_length)
        if self.kind == "LSTM":
            return padded, out_lengths, h[0], h[1]
        return padded, out_lengths, h


class PackedData(nn.Module):
    """The flat packed form itself: data and batch_sizes of pack_padded_sequence (constant lengths)."""

    def __init__(self, enforce_sorted=True):
        super().__init__()
        self.enforce_sorted = enforce_sorted

    def forward(self, x):
        packed = pack_padded_sequence(x, [4, 2, 3] if not self.enforce_sorted else [4, 3, 1],
                                      enforce_sorted=self.enforce_sorted)
        return packed.data * 2, packed.batch_sizes


class PackSequence(nn.Module):
    """pack_sequence of three inputs of different lengths, a GRU, pad_packed_sequence; and pad_sequence."""

    def __init__(self, enforce_sorted=True):
        super().__init__()
        self.gru = nn.GRU(4, 6)
        self.enforce_sorted = enforce_sorted

    def forward(self, a, b, c):
        packed = pack_sequence([a, b, c], enforce_sorted=self.enforce_sorted)
        out, h = self.gru(packed)
        padded, lengths = pad_packed_sequence(out, batch_first=True)
        return padded, lengths, h, pad_sequence([a, b, c], batch_first=True, padding_value=-1.0)


class Cell(nn.Module):
    """One step of RNNCell / LSTMCell / GRUCell."""

    def __init__(self, kind, *args, **kwargs):
        super().__init__()
        self.kind = kind
        self.cell = getattr(nn, kind)(*args, **kwargs)

    def forward(self, x, h=None, c=None):
        if self.kind == "LSTMCell":
            h2, c2 = self.cell(x, None if h is None else (h, c))
            return h2, c2
        return self.cell(x, h)


class CellLoop(nn.Module):
    """An LSTMCell run over the time steps in Python (a Loop when T is only known at run time)."""

    def __init__(self):
        super().__init__()
        self.cell = nn.LSTMCell(4, 8)
        self.out = nn.Linear(8, 3)

    def forward(self, x):
        h = torch.zeros(x.size(1), 8)
        c = torch.zeros(x.size(1), 8)
        outs = []
        for t in range(x.size(0)):
            h, c = self.cell(x[t], (h, c))
            outs.append(h)
        return self.out(torch.stack(outs)), h


class LstmClassifier(nn.Module):
    """Embedding -> 2-layer bidirectional LSTM (batch_first) -> linear on the last states, the usual text
    classifier; flatten_parameters() in forward as many repositories do."""

    def __init__(self, vocab=20, embed=8, hidden=12, classes=3):
        super().__init__()
        self.embed = nn.Embedding(vocab, embed)
        self.lstm = nn.LSTM(embed, hidden, num_layers=2, bidirectional=True, batch_first=True, dropout=0.2)
        self.fc = nn.Linear(2 * hidden, classes)

    def forward(self, tokens):
        self.lstm.flatten_parameters()
        out, (h, c) = self.lstm(self.embed(tokens))
        last = torch.cat([h[-2], h[-1]], dim=1)
        return self.fc(last), out.mean(1)


class GruEncoder(nn.Module):
    """A GRU encoder over padded batches with their lengths (the seq2seq idiom)."""

    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(5, 8)
        self.gru = nn.GRU(8, 8, num_layers=2, bidirectional=True)

    def forward(self, x, lengths):
        packed = pack_padded_sequence(torch.tanh(self.proj(x)), lengths.cpu(), enforce_sorted=False)
        out, h = self.gru(packed)
        out, _ = pad_packed_sequence(out, total_length=x.size(0))
        return out[:, :, :8] + out[:, :, 8:], h


class VfLstm(nn.Module):
    """torch._VF.lstm called directly with the module's flat weights (older repositories do)."""

    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(4, 6, num_layers=2)

    def forward(self, x, h0, c0):
        out, h, c = torch.lstm(x, (h0, c0), self.lstm._flat_weights, True, 2, 0.0, False, False, False)
        return out, h, c


class VfGru(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(4, 6, bidirectional=True, batch_first=True)

    def forward(self, x, h0):
        return torch.gru(x, h0, self.gru._flat_weights, True, 1, 0.0, False, True, True)


class UnsortedLengths(nn.Module):
    """enforce_sorted=True (the default) with lengths that do not decrease: PyTorch's RuntimeError."""

    def forward(self, x):
        return pack_padded_sequence(x, [2, 4, 3]).data


class VfRnn(nn.Module):
    """torch.rnn_tanh / torch.rnn_relu with an nn.RNN's flat weights."""

    def __init__(self, relu=False):
        super().__init__()
        self.relu = relu
        self.rnn = nn.RNN(4, 6, num_layers=2, bidirectional=True, nonlinearity="relu" if relu else "tanh")

    def forward(self, x, h0):
        fn = torch.rnn_relu if self.relu else torch.rnn_tanh
        return fn(x, h0, self.rnn._flat_weights, True, 2, 0.0, False, True, False)


class WordModel(nn.Module):
    """The classic word-level language model: encoder, an RNN picked by name, a decoder tied to the encoder's
    weight, the hidden state made by init_hidden from a parameter's `new` and passed in as a tuple for LSTM."""

    def __init__(self, rnn_type="LSTM", ntoken=30, ninp=8, nhid=8, nlayers=2):
        super().__init__()
        self.encoder = nn.Embedding(ntoken, ninp)
        if rnn_type in ("LSTM", "GRU"):
            self.rnn = getattr(nn, rnn_type)(ninp, nhid, nlayers, dropout=0.5)
        else:
            self.rnn = nn.RNN(ninp, nhid, nlayers, nonlinearity={"RNN_TANH": "tanh", "RNN_RELU": "relu"}[rnn_type])
        self.decoder = nn.Linear(nhid, ntoken)
        self.decoder.weight = self.encoder.weight
        self.rnn_type, self.nhid, self.nlayers = rnn_type, nhid, nlayers

    def init_hidden(self, bsz):
        weight = next(self.parameters())
        if self.rnn_type == "LSTM":
            return (weight.new_zeros(self.nlayers, bsz, self.nhid), weight.new_zeros(self.nlayers, bsz, self.nhid))
        return weight.new_zeros(self.nlayers, bsz, self.nhid)

    def forward(self, tokens):
        hidden = self.init_hidden(tokens.size(1))
        output, hidden = self.rnn(self.encoder(tokens), hidden)
        decoded = self.decoder(output).view(-1, self.decoder.out_features)
        return torch.log_softmax(decoded, dim=1), hidden


class PackedMap(nn.Module):
    """A layer applied to a packed sequence's flat data, repacked with its batch_sizes (and sorted_indices or not)."""

    def __init__(self, keep_order=True):
        super().__init__()
        self.lstm = nn.LSTM(4, 6)
        self.fc = nn.Linear(6, 3)
        self.keep_order = keep_order

    def forward(self, x, lengths):
        from torch.nn.utils.rnn import PackedSequence
        out, _ = self.lstm(pack_padded_sequence(x, lengths, enforce_sorted=False))
        if self.keep_order:
            mapped = PackedSequence(torch.relu(self.fc(out.data)), out.batch_sizes, out.sorted_indices,
                                    out.unsorted_indices)
        else:
            mapped = PackedSequence(torch.relu(self.fc(out.data)), out.batch_sizes)
        padded, lens = pad_packed_sequence(mapped, batch_first=True)
        return padded, lens


class NormedLstm(nn.Module):
    """weight_norm on a recurrent weight (hook form) and spectral_norm on an input weight (parametrization):
    the layer's weights are computed in the graph, not initializers."""

    def __init__(self):
        super().__init__()
        lstm = nn.LSTM(4, 6, bidirectional=True)
        lstm = nn.utils.weight_norm(lstm, "weight_hh_l0")
        self.lstm = nn.utils.parametrizations.spectral_norm(lstm, "weight_ih_l0_reverse")

    def forward(self, x):
        out, (h, c) = self.lstm(x)
        return out, h, c
