"""The modules the Python API keeps between exports (cache=True; torch::KeptModules): every export
gives the bytes a fresh export (cache=False) gives for the same files, however often it runs, what
the model's code changed in module state before, and whatever was edited, added or removed since.
Each test runs its exports in a fresh Python process, as a user's script would."""
import json
import os
import subprocess
import sys
import textwrap

import pytest

from conftest import BUILD_PY

LIB_INIT = ""
REGISTRY = """\
LAYERS = []


def scale():
    return float(len(LAYERS))
"""
LAZY = "FACTOR = 3.0\n"
MODEL = """\
import torch
from torch import nn

import lib.registry as registry

try:
    from lib.extra import BIAS
except ImportError:
    BIAS = 0.0


class M(nn.Module):
    def __init__(self, width=4):
        super().__init__()
        registry.LAYERS.append(self)  # module state: a fresh import starts with it empty
        from lib import lazy  # imported while the model is built
        self.k = registry.scale() * lazy.FACTOR + BIAS
        self.lin = nn.Linear(3, width)

    def forward(self, x):
        return self.lin(x) * self.k
"""


@pytest.fixture
def project(tmp_path):
    root = tmp_path / "proj"
    (root / "lib").mkdir(parents=True)
    (root / "lib" / "__init__.py").write_text(LIB_INIT)
    (root / "lib" / "registry.py").write_text(REGISTRY)
    (root / "lib" / "lazy.py").write_text(LAZY)
    (root / "model.py").write_text(MODEL)
    return root


# One process runs the steps: each is ("export", model, cache, inputs) -> {"sha", "reused"} or
# {"error": [diagnostics]}, ("inspect", model, cache) -> {"text"} or {"error"}, ("write", path,
# text), ("remove", path) or ("release",).
RUNNER = r"""
import hashlib, json, os, sys
import onnxify
steps, source, out = json.loads(sys.argv[1]), sys.argv[2], sys.argv[3]
for step in steps:
    if step[0] == "write":
        with open(step[1], "w") as f:
            f.write(step[2])
    elif step[0] == "remove":
        os.remove(step[1])
    elif step[0] == "release":
        onnxify.release_modules()
    elif step[0] == "inspect":
        try:
            print(json.dumps({"text": onnxify.inspect(source, step[1], cache=step[2])}), flush=True)
        except onnxify.OnnxifyError as e:
            print(json.dumps({"error": [[d.file, d.line, d.column, d.message, d.text] for d in e.diagnostics],
                              "kind": type(e).__name__}), flush=True)
    else:
        _, model, cache, inputs = step
        try:
            r = onnxify.export(source, model, inputs, output=out, cache=cache, progress=False)
            print(json.dumps({"sha": hashlib.sha256(open(r.path, "rb").read()).hexdigest(),
                              "reused": r.reused_modules}), flush=True)
        except onnxify.OnnxifyError as e:
            print(json.dumps({"error": [[d.file, d.line, d.column, d.message, d.text] for d in e.diagnostics],
                              "kind": type(e).__name__, "reused": None}), flush=True)
"""


def run(tmp_path, source, steps):
    env = dict(os.environ, PYTHONPATH=BUILD_PY, XDG_CACHE_HOME=str(tmp_path / "cache"))
    p = subprocess.run([sys.executable, "-c", RUNNER, json.dumps(steps), str(source), str(tmp_path / "out.onnx")],
                       capture_output=True, text=True, env=env, timeout=900, cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    return [json.loads(line) for line in p.stdout.splitlines()]


def export(model="M()", cache=True, inputs=None):
    return ["export", model, cache, inputs or {"x": "float32[N,3]"}]


def test_same_bytes_as_fresh_exports_and_model_state_never_carries_over(tmp_path, project):
    # M() appends to a module-level list and reads its length: a state that leaked from one export
    # into the next would change the constant it records (and the file's bytes).
    got = run(tmp_path, project / "model.py", [export(cache=False), export(), export(), export(),
                                               export("M(width=5)"), export("M(width=5)", cache=False)])
    fresh, first, second, third, other, other_fresh = got
    assert "sha" in fresh, fresh
    assert [g["sha"] for g in (first, second, third)] == [fresh["sha"]] * 3
    assert other["sha"] == other_fresh["sha"] != fresh["sha"]
    assert [g["reused"] for g in (first, second, third, other)] == [False, True, True, True]


def test_edited_added_and_removed_files_are_imported_again(tmp_path, project):
    lazy, extra = str(project / "lib" / "lazy.py"), str(project / "lib" / "extra.py")
    got = run(tmp_path, project / "model.py", [
        export(), export(),
        ["write", lazy, "FACTOR = 5.0\n"],      # same size, same second: the stamp still differs
        export(), export(cache=False),
        ["write", extra, "BIAS = 2.0\n"],       # a module the source tried and did not find
        export(), export(cache=False),
        ["remove", extra],
        export(), export(cache=False),
        ["release"],
        export(),
    ])
    start, again, edited, edited_fresh, added, added_fresh, removed, removed_fresh, released = got
    assert again == {"sha": start["sha"], "reused": True}
    assert edited["sha"] == edited_fresh["sha"] != start["sha"] and edited["reused"] is False
    assert added["sha"] == added_fresh["sha"] != edited["sha"] and added["reused"] is False
    assert removed["sha"] == removed_fresh["sha"] == edited["sha"] and removed["reused"] is False
    assert released == {"sha": edited["sha"], "reused": False}


BROKEN_FORWARD = MODEL.replace("        return self.lin(x) * self.k", "        raise ValueError('no forward here')")


def test_failures_report_what_a_fresh_export_reports(tmp_path, project):
    model = project / "model.py"
    model.write_text(BROKEN_FORWARD)
    got = run(tmp_path, model, [
        export(cache=False), export(), export(),                  # raised in forward (in the child)
        export("N()", cache=False), export("N()"),               # an unknown name in --model
        ["write", str(model), "def broken(:\n"], export(cache=False), export(),  # SOURCE does not parse
        ["write", str(model), MODEL], export(), export(),
    ])
    raised_fresh, raised, raised_again, name_fresh, name, syntax_fresh, syntax, fixed, fixed_again = got
    assert raised_fresh["kind"] == "ConversionError" and "no forward here" in raised_fresh["error"][-1][3]
    assert raised_fresh["error"][-1][:3] == [str(model), 21, 9]
    assert raised["error"] == raised_again["error"] == raised_fresh["error"]
    assert raised_again["reused"] is None
    assert name_fresh["kind"] == name["kind"] == "BadInputError" and name["error"] == name_fresh["error"]
    assert syntax_fresh["kind"] == syntax["kind"] == "ConversionError" and syntax["error"] == syntax_fresh["error"]
    assert fixed["reused"] is False and fixed_again["reused"] is True and fixed["sha"] == fixed_again["sha"]


SMALL_HF = "num_hidden_layers=2, hidden_size=64, num_attention_heads=2, intermediate_size=128"
HF = [  # different architectures in a row: each imports its own modules ahead for the next
    ("BertModel(BertConfig(vocab_size=100, " + SMALL_HF + "))", {"input_ids": "int64[B,S]"}),
    ("GPT2Model(GPT2Config(vocab_size=100, n_layer=2, n_embd=64, n_head=2, n_positions=64))",
     {"input_ids": "int64[B,S]", "use_cache": "False"}),
    ("T5EncoderModel(T5Config(vocab_size=100, num_layers=2, d_model=64, d_kv=16, num_heads=4, d_ff=128))",
     {"input_ids": "int64[B,S]"}),
    ("ViTModel(ViTConfig(image_size=32, patch_size=8, " + SMALL_HF + "))", {"pixel_values": "float32[B,3,32,32]"}),
]


def test_inspect_from_kept_modules_says_what_a_fresh_inspect_says(tmp_path, project):
    got = run(tmp_path, project / "model.py", [
        ["inspect", "M()", False], ["inspect", "M()", True], export(), ["inspect", "M(width=6)", True],
        ["inspect", "M(width=6)", False], ["inspect", "Nope()", True], ["inspect", "Nope()", False]])
    fresh, kept, exported, kept_other, fresh_other, bad_kept, bad_fresh = got
    assert "Linear" in fresh["text"] and kept == fresh and exported["reused"] is True
    assert kept_other == fresh_other != fresh
    assert bad_kept == bad_fresh and bad_kept["kind"] == "BadInputError"


def test_transformers_models_in_a_row_same_bytes_from_kept_modules(tmp_path):
    pytest.importorskip("transformers")
    steps = []
    for model, inputs in HF + HF[:1]:
        steps += [export(model, False, inputs), export(model, True, inputs)]
    got = run(tmp_path, "transformers", steps)
    fresh, kept = got[0::2], got[1::2]
    assert all("sha" in g for g in got), got
    assert [k["sha"] for k in kept] == [f["sha"] for f in fresh]
    # After the first, every export reused the kept modules (none had to be imported again).
    assert [k["reused"] for k in kept] == [False] + [True] * len(HF)


FORKED = r"""
import hashlib, json, os, sys
import onnxify
source, out = sys.argv[1], sys.argv[2]
def sha(cache):
    r = onnxify.export(source, "M()", {"x": "float32[N,3]"}, output=out, cache=cache, progress=False)
    return hashlib.sha256(open(r.path, "rb").read()).hexdigest(), r.reused_modules
first = sha(True)
pid = os.fork()  # as multiprocessing does: the child has none of this process's threads
if pid == 0:
    os._exit(0 if sha(True) == (first[0], False) and sha(True) == (first[0], True) else 3)
_, status = os.waitpid(pid, 0)
print(json.dumps({"child": os.waitstatus_to_exitcode(status), "parent": sha(True) == (first[0], True)}))
"""


def test_a_process_forked_by_the_user_exports_with_its_own_kept_modules(tmp_path, project):
    env = dict(os.environ, PYTHONPATH=BUILD_PY, XDG_CACHE_HOME=str(tmp_path / "cache"))
    p = subprocess.run([sys.executable, "-c", FORKED, str(project / "model.py"), str(tmp_path / "o.onnx")],
                       capture_output=True, text=True, env=env, timeout=300)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout) == {"child": 0, "parent": True}
