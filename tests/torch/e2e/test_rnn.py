"""nn.RNN (tanh, relu) / nn.LSTM (proj_size too) / nn.GRU with every option (num_layers, bidirectional,
batch_first, bias, dropout in eval, initial states given or not, unbatched input), packed sequences
(pack_padded_sequence with the lengths as a graph input, enforce_sorted both ways, pad_packed_sequence
with total_length and padding_value, pack_sequence / pad_sequence, the flat data and batch_sizes),
torch.lstm / torch.gru called directly, the cells (RNNCell, LSTMCell, GRUCell, batched and not, a cell
run over time in a Python loop) and two small models. Time T and batch N are symbolic; every case is
checked against PyTorch 2.14 eager in ONNX Runtime at two sizes (one of them batch 1). The layers are
one composite `rnn` node per layer ('_onnxify_rnn'): ONNX RNN/LSTM/GRU where the target takes them,
a Scan otherwise; DECOMPOSED runs cases again with --decompose rnn (the Scan form, also what
tensorrt gets for LSTM with proj_size), and test_targets.py runs every case per target x opset."""
import pytest

from harness import Batch, Case, check, check_pytorch_error

TN = [{"T": 5, "N": 2}, {"T": 3, "N": 1}]
I, H = 4, 6


def rec(name, kind, kwargs="", shapes=TN, x=f"float32[T,N,{I}]", args=(), **inputs):
    return Case(name, "rnn.py", f"Recurrent('{kind}', input_size={I}, hidden_size={H}{', ' + kwargs if kwargs else ''})",
                dict(x=x, **inputs), shapes=shapes, args=args)


def hidden(layers, size=H):
    return f"float32[{layers},N,{size}]"


def layers(kind):
    return [
        rec(f"{kind}_default", kind),
        rec(f"{kind}_two_layers", kind, "num_layers=2"),
        rec(f"{kind}_bidirectional", kind, "bidirectional=True"),
        rec(f"{kind}_two_layers_bidirectional", kind, "num_layers=2, bidirectional=True, dropout=0.3"),
        rec(f"{kind}_batch_first", kind, "batch_first=True", x=f"float32[N,T,{I}]"),
        rec(f"{kind}_no_bias", kind, "bias=False, bidirectional=True"),
        rec(f"{kind}_h0", kind, "num_layers=2", h0=hidden(2), **({"c0": hidden(2)} if kind == "LSTM" else {})),
        rec(f"{kind}_h0_bidirectional_batch_first", kind, "bidirectional=True, batch_first=True",
            x=f"float32[N,T,{I}]", h0=hidden(2), **({"c0": hidden(2)} if kind == "LSTM" else {})),
        rec(f"{kind}_unbatched", kind, "num_layers=2, bidirectional=True", shapes=[{"T": 5}, {"T": 1}],
            x=f"float32[T,{I}]"),
        rec(f"{kind}_unbatched_h0", kind, "", shapes=[{"T": 4}, {"T": 2}], x=f"float32[T,{I}]",
            h0=f"float32[1,{H}]", **({"c0": f"float32[1,{H}]"} if kind == "LSTM" else {})),
    ]


RELU = "nonlinearity='relu'"
LAYERS = layers("LSTM") + layers("GRU") + layers("RNN") + [
    rec("RNN_relu", "RNN", RELU),
    rec("RNN_relu_two_layers_bidirectional", "RNN", f"{RELU}, num_layers=2, bidirectional=True"),
    rec("RNN_relu_h0", "RNN", f"{RELU}, bias=False", h0=hidden(1)),
    rec("LSTM_proj", "LSTM", "proj_size=3"),
    rec("LSTM_proj_two_layers_bidirectional", "LSTM", "proj_size=3, num_layers=2, bidirectional=True"),
    rec("LSTM_proj_h0_batch_first", "LSTM", "proj_size=2, batch_first=True", x=f"float32[N,T,{I}]",
        h0=hidden(1, 2), c0=hidden(1)),
    rec("LSTM_float64", "LSTM", "num_layers=2, bidirectional=True, dtype=torch.float64", x=f"float64[T,N,{I}]"),
    Case("vf_lstm", "rnn.py", "VfLstm()", {"x": "float32[T,N,4]", "h0": "float32[2,N,6]", "c0": "float32[2,N,6]"},
         shapes=TN),  # torch.lstm
    Case("vf_gru", "rnn.py", "VfGru()", {"x": "float32[N,T,4]", "h0": "float32[2,N,6]"}, shapes=TN),  # torch.gru
    Case("vf_rnn_tanh", "rnn.py", "VfRnn()", {"x": "float32[T,N,4]", "h0": "float32[4,N,6]"}, shapes=TN),  # torch.rnn_tanh
    Case("vf_rnn_relu", "rnn.py", "VfRnn(relu=True)", {"x": "float32[T,N,4]", "h0": "float32[4,N,6]"},
         shapes=TN),  # torch.rnn_relu
]

# Lengths of a packed batch: a graph input, at most T (1..3 for T = 3 and 5).
LEN = {"lengths": "int:1:4"}


def packed(name, kind, kwargs="", x=f"float32[T,N,{I}]", gen=LEN, shapes=TN, paths=None):
    return Case(name, "rnn.py", f"Packed('{kind}', input_size={I}, hidden_size={H}{', ' + kwargs if kwargs else ''})",
                {"x": x, "lengths": "int64[N]"}, shapes=shapes, gen=gen, paths=paths)


# enforce_sorted=True: PyTorch requires decreasing lengths; one input set per shape.
SORTED = [("T=5, N=3", {"x": "torch.randn(5, 3, 4)", "lengths": "torch.tensor([5, 3, 2])"}),
          ("T=4, N=1", {"x": "torch.randn(4, 1, 4)", "lengths": "torch.tensor([2])"})]
SORTED_BF = [("N=3, T=5", {"x": "torch.randn(3, 5, 4)", "lengths": "torch.tensor([4, 4, 1])"}),
             ("N=2, T=2", {"x": "torch.randn(2, 2, 4)", "lengths": "torch.tensor([2, 1])"})]
PACKED = [
    packed("packed_lstm", "LSTM"),
    packed("packed_gru_bidirectional", "GRU", "bidirectional=True, num_layers=2"),
    packed("packed_rnn_batch_first", "RNN", "batch_first=True", x=f"float32[N,T,{I}]"),
    packed("packed_lstm_bidirectional_h0", "LSTM", "bidirectional=True, with_h0=True"),
    packed("packed_lstm_proj_bidirectional", "LSTM", "bidirectional=True, proj_size=4"),
    packed("packed_total_length_padding_value", "GRU", "total_length=7, padding_value=-2.5"),
    packed("packed_sorted_lstm", "LSTM", "enforce_sorted=True, bidirectional=True", gen=None, paths=SORTED),
    packed("packed_sorted_gru_batch_first", "GRU", "enforce_sorted=True, batch_first=True", x=f"float32[N,T,{I}]",
           gen=None, paths=SORTED_BF),
    Case("packed_data", "rnn.py", "PackedData()", {"x": "float32[4,3,5]"}),
    Case("packed_data_unsorted", "rnn.py", "PackedData(enforce_sorted=False)", {"x": "float32[4,3,5]"}),
    Case("packed_map", "rnn.py", "PackedMap()", {"x": "float32[T,N,4]", "lengths": "int64[N]"}, shapes=TN, gen=LEN),
    Case("packed_map_sorted_order", "rnn.py", "PackedMap(keep_order=False)", {"x": "float32[T,N,4]",
                                                                            "lengths": "int64[N]"},
         paths=[("T=5, N=3", {"x": "torch.randn(5, 3, 4)", "lengths": "torch.tensor([2, 5, 3])"}),
                ("T=3, N=2", {"x": "torch.randn(3, 2, 4)", "lengths": "torch.tensor([3, 1])"})]),
    Case("pack_sequence", "rnn.py", "PackSequence()", {"a": "float32[A,4]", "b": "float32[B,4]", "c": "float32[C,4]"},
         shapes=[{"A": 5, "B": 3, "C": 2}, {"A": 3, "B": 3, "C": 1}]),
    Case("pack_sequence_unsorted", "rnn.py", "PackSequence(enforce_sorted=False)",
         {"a": "float32[A,4]", "b": "float32[B,4]", "c": "float32[C,4]"},
         shapes=[{"A": 2, "B": 5, "C": 3}, {"A": 1, "B": 1, "C": 4}]),
]

N = [{"N": 3}, {"N": 1}]
CELLS = [
    Case("rnn_cell", "rnn.py", "Cell('RNNCell', 4, 6)", {"x": "float32[N,4]", "h": "float32[N,6]"}, shapes=N),
    Case("rnn_cell_relu_no_h", "rnn.py", "Cell('RNNCell', 4, 6, nonlinearity='relu', bias=False)",
         {"x": "float32[N,4]"}, shapes=N),
    Case("lstm_cell", "rnn.py", "Cell('LSTMCell', 4, 6)", {"x": "float32[N,4]", "h": "float32[N,6]",
                                                          "c": "float32[N,6]"}, shapes=N),
    Case("lstm_cell_no_state", "rnn.py", "Cell('LSTMCell', 4, 6)", {"x": "float32[N,4]"}, shapes=N),
    Case("gru_cell", "rnn.py", "Cell('GRUCell', 4, 6)", {"x": "float32[N,4]", "h": "float32[N,6]"}, shapes=N),
    Case("gru_cell_unbatched", "rnn.py", "Cell('GRUCell', 4, 6, bias=False)", {"x": "float32[4]", "h": "float32[6]"}),
    Case("lstm_cell_unbatched", "rnn.py", "Cell('LSTMCell', 4, 6)", {"x": "float32[4]"}),
    Case("cell_loop", "rnn.py", "CellLoop()", {"x": "float32[T,N,4]"}, shapes=TN),
]

MODELS = [
    Case("lstm_classifier", "rnn.py", "LstmClassifier()", {"tokens": "int64[N,T]"}, shapes=TN,
         gen={"tokens": "int:0:20"}),
    Case("gru_encoder", "rnn.py", "GruEncoder()", {"x": "float32[T,N,5]", "lengths": "int64[N]"}, shapes=TN,
         gen=LEN),
    Case("normed_lstm", "rnn.py", "NormedLstm()", {"x": "float32[T,N,4]"}, shapes=TN),
    Case("word_model_lstm", "rnn.py", "WordModel()", {"tokens": "int64[T,N]"}, shapes=TN, gen={"tokens": "int:0:30"}),
    Case("word_model_gru", "rnn.py", "WordModel('GRU')", {"tokens": "int64[T,N]"}, shapes=TN, gen={"tokens": "int:0:30"}),
    Case("word_model_relu", "rnn.py", "WordModel('RNN_RELU')", {"tokens": "int64[T,N]"}, shapes=TN,
         gen={"tokens": "int:0:30"}),
]

# The Scan decomposition in ONNX Runtime (--decompose rnn), for a spread of the cases above.
DECOMPOSED = []
for c in LAYERS + PACKED + MODELS:
    if c.name.startswith(("LSTM_", "GRU_two", "GRU_h0", "RNN_relu", "RNN_unbatched", "GRU_batch", "packed_",
                          "lstm_classifier", "gru_encoder", "vf_")) and c.name != "LSTM_float64":
        d = c.fresh()
        d.name = c.name + "_decomposed"
        d.args = d.args + ["--decompose", "rnn"]
        d.matrix = False  # the decomposition is already the point
        DECOMPOSED.append(d)

# float64: the onnxruntime target decomposes (ONNX Runtime's LSTM kernel is float32 only); generic keeps the
# ONNX LSTM, valid ONNX that ONNX Runtime cannot run, so this case stays out of test_targets' matrix.
next(c for c in LAYERS if c.name == "LSTM_float64").matrix = False

CASES = LAYERS + PACKED + CELLS + MODELS + DECOMPOSED
BATCH = Batch(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_rnn(case):
    check(BATCH.get(case))


# PyTorch's errors on bad arguments, raised by onnxify at conversion time with PyTorch's wording
# (unsorted_lengths: enforce_sorted's check on lengths known at conversion time, '_onnxify_known').
ERRORS = [
    ("input_size", "Recurrent('LSTM', input_size=3, hidden_size=4)", {"x": "float32[5,2,4]"}, 1),
    ("hidden_size", "Recurrent('GRU', input_size=4, hidden_size=4)", {"x": "float32[5,2,4]", "h0": "float32[1,2,5]"},
     1),
    ("input_dim", "Recurrent('RNN', input_size=4, hidden_size=4)", {"x": "float32[5,2,3,4]"}, 1),
    ("proj_size_too_big", "Recurrent('LSTM', input_size=4, hidden_size=4, proj_size=4)", {"x": "float32[5,2,4]"}, 1),
    ("gru_proj_size", "Recurrent('GRU', input_size=4, hidden_size=4, proj_size=2)", {"x": "float32[5,2,4]"}, 1),
    ("bad_nonlinearity", "Recurrent('RNN', input_size=4, hidden_size=4, nonlinearity='gelu')", {"x": "float32[5,2,4]"},
     1),
    ("unsorted_lengths", "UnsortedLengths()", {"x": "float32[4,3,5]"}, 1),
]


@pytest.mark.parametrize("name,model,inputs,status", ERRORS, ids=[e[0] for e in ERRORS])
def test_rnn_pytorch_errors(name, model, inputs, status, tmp_path):
    check_pytorch_error("rnn.py", model, inputs, tmp_path, status)


# Granularity: which ONNX ops each target and option gives (the numbers are checked above and in
# test_targets.py; here, that the coarse op is used where the target takes it).
GRANULARITY = [
    # (model, input spec, extra args, ops that must be there, ops that must not)
    ("Recurrent('LSTM', input_size=4, hidden_size=6, num_layers=2, bidirectional=True)", "float32[T,N,4]", [],
     {"LSTM"}, {"Scan", "Loop", "Split"}),
    ("Recurrent('GRU', input_size=4, hidden_size=6, bidirectional=True)", "float32[T,N,4]",
     ["--target", "tensorrt"], {"GRU"}, {"Scan"}),
    ("Recurrent('RNN', input_size=4, hidden_size=6, nonlinearity='relu')", "float32[T,N,4]",
     ["--target", "generic", "--opset", "13"], {"RNN"}, {"Scan"}),
    ("Recurrent('LSTM', input_size=4, hidden_size=6, bidirectional=True)", "float32[T,N,4]",
     ["--decompose", "rnn"], {"Scan"}, {"LSTM"}),
    ("Recurrent('LSTM', input_size=4, hidden_size=6, proj_size=3)", "float32[T,N,4]", ["--target", "tensorrt"],
     {"Scan"}, {"LSTM"}),
    ("Recurrent('GRU', input_size=4, hidden_size=6, dtype=torch.float64)", "float64[T,N,4]", [], {"Scan"}, {"GRU"}),
]


@pytest.mark.parametrize("model,spec,args,want,never", GRANULARITY, ids=[f"{g[0][11:15]}{g[2]}" for g in GRANULARITY])
def test_rnn_granularity(model, spec, args, want, never, tmp_path):
    import subprocess
    import onnx
    from harness import MODELS, ONNXIFY
    out = tmp_path / "m.onnx"
    p = subprocess.run([ONNXIFY, "export", f"{MODELS}/rnn.py", "--model", model, "--input", f"x={spec}", "-o", str(out),
                        "-q"] + args, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    ops = {n.op_type for n in onnx.load(str(out)).graph.node}
    assert want <= ops and not (never & ops), ops


def test_keep_rnn_with_projection_is_an_error(tmp_path):
    """--keep rnn where ONNX LSTM cannot express the layer: a clear error naming why."""
    import subprocess
    from harness import MODELS, ONNXIFY
    p = subprocess.run([ONNXIFY, "export", f"{MODELS}/rnn.py", "--model",
                        "Recurrent('LSTM', input_size=4, hidden_size=6, proj_size=3)", "--input", "x=float32[T,N,4]",
                        "--keep", "rnn", "-o", str(tmp_path / "m.onnx")], capture_output=True, text=True, timeout=300)
    assert p.returncode == 1, p.stderr
    assert "rnn.py:" in p.stderr and "cannot keep rnn as one LSTM node: ONNX LSTM has no projection" in p.stderr, \
        p.stderr
