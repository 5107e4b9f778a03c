"""Keras applications on TensorFlow, three converters side by side (issue 30's anchors).

Each model of `keras.applications` is built by Keras 3 on its **TensorFlow** backend with random
weights (BatchNorm moving statistics randomized so they matter), saved as a `.keras` archive, and run
by TensorFlow eager at batch 1 and 3. Then, each as its own whole process (wall time and peak RSS):

- **onnxify**: `onnxify export bench/zoo/keras_apps.py --model "app(NAME, S)" --weights NAME.keras
  --input inputs=float32[N,S,S,3]`: the model built from keras' unmodified source by onnxify's
  evaluator (never importing TensorFlow), the weights read from the archive;
- **onnxify-server** (with `--exporters onnxify-server,...`): the same command with `--server`, a
  private export server keeping keras' modules between commands; the model's first command (which
  imports) is not counted, the second is;
- **tf2onnx**: `tf2onnx.convert.from_keras` on the model `keras.saving.load_model` reads back from the
  same archive, batch symbolic (`TensorSpec((None, S, S, 3))`);
- **keras export**: the loaded model's own `model.export(path, format="onnx")`.

Every file runs in ONNX Runtime at batch 1 and 3 and is compared with TensorFlow eager. A file outside
the tolerance is judged again against a float64 build of the same model (Keras' floatx float64, same
weights): right when it is no farther from float64 than twice eager float32 is (deep random-weight
models whose float32 rounding alone exceeds the tolerance).

    .venv/bin/python bench/keras_tf/run.py [--names ResNet50,Xception] [--tf-python PY]

`--tf-python` is a venv with tensorflow-cpu, tf2onnx, keras and onnxruntime (scripts/setup-tf.sh makes
.venv-tf). Results: bench/keras_tf/results/{cases.jsonl,summary.md}."""
import argparse
import contextlib
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "tools"))
import export_server  # noqa: E402
SIZES = {"InceptionV3": 75, "InceptionResNetV2": 75, "Xception": 71, "NASNetMobile": 224, "NASNetLarge": 331}
BATCHES = (1, 3)
ATOL = 1e-4
EXPORTERS = ("onnxify", "onnxify-server", "tf2onnx", "keras")
DEFAULT_EXPORTERS = ("onnxify", "tf2onnx", "keras")


# ---- steps run in the TensorFlow venv (this file, `step NAME ...`) ----

def _keras_tf():
    os.environ["KERAS_BACKEND"] = "tensorflow"
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import keras
    return keras


def _build(keras, name, size):
    keras.backend.clear_session(free_memory=False)
    return getattr(keras.applications, name)(weights=None, input_shape=(size, size, 3), classes=10)


def step_prepare(name, size, work):
    """Random weights (seeded), BatchNorm statistics randomized, the .keras archive, inputs, eager outputs."""
    import numpy as np
    keras = _keras_tf()
    keras.utils.set_random_seed(0)
    model = _build(keras, name, size)
    g = np.random.default_rng(1)
    for layer in model._flatten_layers(include_self=False, recursive=True):
        if isinstance(layer, keras.layers.BatchNormalization):
            shape = tuple(layer.moving_mean.shape)
            layer.moving_mean.assign((g.standard_normal(shape) * 0.1).astype("float32"))
            layer.moving_variance.assign((g.random(shape) + 0.5).astype("float32"))
    model.save(os.path.join(work, name + ".keras"))
    feeds, wants = {}, {}
    for n in BATCHES:
        x = g.standard_normal((n, size, size, 3)).astype("float32")
        feeds[f"x{n}"] = x
        wants[f"y{n}"] = np.asarray(model(x, training=False))
    np.savez(os.path.join(work, name + ".io.npz"), **feeds, **wants)


def step_float64(name, size, work):
    """The same model and weights with Keras' float type float64, at the same inputs."""
    import numpy as np
    keras = _keras_tf()
    keras.config.set_floatx("float64")
    model = _build(keras, name, size)
    model.load_weights(os.path.join(work, name + ".keras"))
    io = np.load(os.path.join(work, name + ".io.npz"))
    np.savez(os.path.join(work, name + ".f64.npz"),
             **{f"y{n}": np.asarray(model(io[f"x{n}"].astype("float64"), training=False)) for n in BATCHES})


def step_tf2onnx(name, size, work):
    keras = _keras_tf()
    import tensorflow as tf
    import tf2onnx
    model = keras.saving.load_model(os.path.join(work, name + ".keras"))
    spec = (tf.TensorSpec((None, size, size, 3), tf.float32, name="inputs"),)
    tf2onnx.convert.from_keras(model, input_signature=spec, opset=17,
                               output_path=os.path.join(work, name + ".tf2onnx.onnx"))


def step_keras(name, size, work):
    keras = _keras_tf()
    import numpy as np
    model = keras.saving.load_model(os.path.join(work, name + ".keras"))
    model(np.zeros((1, size, size, 3), "float32"))  # export refuses a model never called ("has never called")
    model.export(os.path.join(work, name + ".keras.onnx"), format="onnx")


def step_check(name, size, work):
    """Prints one JSON line: per exporter, the verdict and the largest differences."""
    import numpy as np
    import onnxruntime as ort
    io = np.load(os.path.join(work, name + ".io.npz"))
    f64_path = os.path.join(work, name + ".f64.npz")
    f64 = np.load(f64_path) if os.path.exists(f64_path) else None
    out = {}
    for ex in EXPORTERS:
        path = os.path.join(work, f"{name}.{ex}.onnx")
        if not os.path.exists(path):
            continue
        try:
            opts = ort.SessionOptions()
            opts.intra_op_num_threads = 1
            sess = ort.InferenceSession(path, opts, providers=["CPUExecutionProvider"])
            feed_name = sess.get_inputs()[0].name
            diffs, diffs64, eager64 = [], [], []
            for n in BATCHES:
                got = sess.run(None, {feed_name: io[f"x{n}"]})[0]
                want = io[f"y{n}"]
                if got.shape != want.shape:
                    raise ValueError(f"at N={n}: shape {list(got.shape)}, eager {list(want.shape)}")
                diffs.append(float(np.max(np.abs(got - want))))
                if f64 is not None:
                    ref = f64[f"y{n}"]
                    diffs64.append(float(np.max(np.abs(got.astype("float64") - ref))))
                    eager64.append(float(np.max(np.abs(want.astype("float64") - ref))))
            worst = max(diffs)
            if worst <= ATOL:
                out[ex] = {"verdict": "right", "max_diff": worst}
            elif f64 is not None and all(d <= max(2 * e, ATOL) for d, e in zip(diffs64, eager64)):
                out[ex] = {"verdict": "right", "max_diff": worst, "float64": True}
            else:
                out[ex] = {"verdict": "wrong", "max_diff": worst}
        except Exception as e:  # a file ONNX Runtime does not load or run
            out[ex] = {"verdict": "fails", "error": f"onnxruntime: {type(e).__name__}: {str(e).strip()[:300]}"}
    print(json.dumps(out))


STEPS = {"prepare": step_prepare, "float64": step_float64, "tf2onnx": step_tf2onnx, "keras": step_keras,
         "check": step_check}


# ---- the driver (any Python: it only starts processes) ----

def _rss_mib(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0


def run_timed(cmd, timeout, mem_limit_mib=None, env=None):
    """(exit status, wall seconds, peak RSS MiB, output) of one whole process: forked here so that
    wait4 gives its peak RSS (that of the process and the children it waited for). This thread waits
    for it (the wall time ends when it does, not at the next poll); a watchdog thread stops it over
    the time or memory limit."""
    start = time.monotonic()
    with tempfile.TemporaryFile() as log:
        pid = os.fork()
        if pid == 0:  # the child: its own process group, output to the log
            os.setsid()
            os.dup2(log.fileno(), 1)
            os.dup2(log.fileno(), 2)
            try:
                os.execvpe(cmd[0], cmd, env or os.environ)
            finally:
                os._exit(127)
        done = threading.Event()
        over = []

        def watch():
            deadline = start + timeout
            while not done.wait(0.05):
                if (mem_limit_mib and _rss_mib(pid) > mem_limit_mib) or time.monotonic() > deadline:
                    over.append(time.monotonic() <= deadline)  # True: the memory limit
                    try:
                        os.killpg(pid, 9)
                    except ProcessLookupError:
                        pass
                    return

        watchdog = threading.Thread(target=watch, daemon=True)
        watchdog.start()
        _, status, usage = os.wait4(pid, 0)
        wall = time.monotonic() - start
        done.set()
        watchdog.join()
        log.seek(0)
        text = log.read().decode(errors="replace")
    if over and over[0]:
        text += f"\nError: over the memory limit ({mem_limit_mib / 1024:.0f} GiB resident): stopped"
    return os.waitstatus_to_exitcode(status), wall, usage.ru_maxrss / 1024, text


def last_error(text):
    lines = [ln for ln in text.splitlines() if ln.strip()]
    for ln in lines:  # onnxify's diagnostic: FILE:LINE:COL: error: ...
        if ": error: " in ln:
            return ln.split(": error: ", 1)[1].strip()[:300]
    for ln in reversed(lines):
        if "Error" in ln or "error:" in ln:
            return ln.strip()[:300]
    return (lines[-1].strip() if lines else "no output")[:300]


def run_case(o, name, work):
    size = SIZES.get(name, 64)
    me = [o.tf_python, os.path.abspath(__file__), "step"]
    row = {"name": name, "input": f"inputs=float32[N,{size},{size},3]", "batches": list(BATCHES)}
    rc, wall, rss, text = run_timed(me + ["prepare", name, str(size), work], o.timeout, o.mem_limit_gb * 1024)
    if rc != 0:
        row["eager"] = last_error(text)
        return row
    row["eager"] = "yes"
    cmds = {
        "onnxify": [o.onnxify, "export", os.path.join(ROOT, "bench", "zoo", "keras_apps.py"),
                    "--model", f"app({name!r}, {size})", "--weights", os.path.join(work, name + ".keras"),
                    "--input", f"inputs=float32[N,{size},{size},3]", "--python", o.torch_python, "-q",
                    "-o", os.path.join(work, f"{name}.onnxify.onnx")],
        "tf2onnx": me + ["tf2onnx", name, str(size), work],
        "keras": me + ["keras", name, str(size), work],
    }
    # The same command through the export server, into its own file.
    cmds["onnxify-server"] = cmds["onnxify"][:-1] + [os.path.join(work, f"{name}.onnxify-server.onnx"), "--server"]
    for ex in o.exporters:
        env = o.server_env if ex == "onnxify-server" else None
        if ex == "onnxify-server":  # the command that imports this model's modules into the server
            run_timed(cmds[ex], o.timeout, o.mem_limit_gb * 1024, env)
        rc, wall, rss, text = run_timed(cmds[ex], o.timeout, o.mem_limit_gb * 1024, env)
        if ex == "onnxify-server":  # the client is small: the memory is the server's or its export's
            used = export_server.usage(o.onnxify, env)
            rss = used[1] if used else rss
        res = {"seconds": round(wall, 2), "rss_mib": round(rss)}
        if rc != 0 or not os.path.exists(os.path.join(work, f"{name}.{ex}.onnx")):
            stopped = "over the memory limit" if "over the memory limit" in text else "over the time limit"
            res.update(verdict="fails", error=(f"stopped: {stopped}" if rc == -9 else last_error(text)))
        row[ex] = res
    rc, _, _, text = run_timed(me + ["check", name, str(size), work], o.timeout)
    checked = json.loads(text.strip().splitlines()[-1]) if rc == 0 else {}
    if any(v.get("verdict") == "wrong" for v in checked.values()):
        if run_timed(me + ["float64", name, str(size), work], o.timeout)[0] == 0:
            rc, _, _, text = run_timed(me + ["check", name, str(size), work], o.timeout)
            checked = json.loads(text.strip().splitlines()[-1]) if rc == 0 else checked
    for ex, res in checked.items():
        if "verdict" not in row[ex]:
            row[ex].update(res)
    return row


def summarize(rows, versions, note=""):
    rows = sorted(rows, key=lambda r: r["name"])
    shown = [ex for ex in EXPORTERS if any(ex in r for r in rows)] or list(DEFAULT_EXPORTERS)
    built = [r for r in rows if r.get("eager") == "yes"]
    lines = ["# Keras applications on TensorFlow: onnxify, tf2onnx and Keras' exporter", "",
             f"Versions: {versions}." + (f" {note}" if note else ""), "",
             f"{len(rows)} `keras.applications` models; {len(built)} build and run in TensorFlow eager "
             f"(random weights, BatchNorm statistics randomized, saved as `.keras`). Each exporter's file runs "
             f"in ONNX Runtime at batch {' and '.join(map(str, BATCHES))} (the batch symbolic) vs TensorFlow "
             f"eager; times and peak RSS are whole processes (onnxify: reading keras' source and the archive; "
             f"tf2onnx and Keras: importing TensorFlow, loading the archive, converting).", "",
             "| of the models eager builds | " + " | ".join(shown) + " |",
             "| --- | " + " | ".join("---" for _ in shown) + " |"]
    for verdict in ("right", "wrong", "fails"):
        lines.append(f"| {verdict} | " + " | ".join(
            str(sum(1 for r in built if r.get(ex, {}).get("verdict") == verdict)) for ex in shown) + " |")
    for key, label in (("seconds", "median seconds"), ("rss_mib", "median peak RSS MiB")):
        cells = []
        for ex in shown:
            vals = [r[ex][key] for r in built if key in r.get(ex, {})]
            cells.append(f"{statistics.median(vals):.1f}" if vals else "-")
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    for ours, how in (("onnxify", "onnxify whole process"),
                      ("onnxify-server", "`onnxify export --server` (a served export's whole client process)")):
        ratios = [r["tf2onnx"]["seconds"] / r[ours]["seconds"] for r in built
                  if r.get("tf2onnx", {}).get("verdict") == "right" and r.get(ours, {}).get("verdict") == "right"]
        if ratios:
            lines += ["", f"tf2onnx whole process / {how}, where both are right: median "
                      f"{statistics.median(ratios):.1f}x, min {min(ratios):.1f}x, max {max(ratios):.1f}x."]
    lines += ["", "| model | input | " + " | ".join(shown) + " |",
              "| --- | --- | " + " | ".join("---" for _ in shown) + " |"]
    for r in rows:
        if r.get("eager") != "yes":
            lines.append(f"| {r['name']} | {r['input']} | not built in TensorFlow eager: {r['eager']} |")
            continue
        cells = []
        for ex in shown:
            res = r.get(ex)
            if not res:
                cells.append("-")
            elif res.get("verdict") == "right":
                extra = ", float64 reference" if res.get("float64") else ""
                cells.append(f"right ({res['seconds']:.1f} s, {res['rss_mib']} MiB{extra})")
            elif res.get("verdict") == "wrong":
                cells.append(f"wrong: max diff {res['max_diff']:.2g}")
            else:
                error = re.sub(r"/tmp/onnxify-keras-tf-[^/]*/", "", res.get("error", ""))  # the work folder
                if error == "timeout":  # rows of runs that did not yet record which limit stopped them
                    error = "stopped by the time (900 s) or memory (16 GiB) limit"
                cells.append("fails: " + error.replace("|", "\\|")[:160])
        lines.append(f"| {r['name']} | {r['input']} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "step":
        name, size, work = sys.argv[3], int(sys.argv[4]), sys.argv[5]
        STEPS[sys.argv[2]](name, size, work)
        return
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--names", help="comma-separated keras.applications names (default: all)")
    ap.add_argument("--tf-python", default=os.path.join(ROOT, ".venv-tf", "bin", "python"))
    ap.add_argument("--torch-python", default=os.path.join(ROOT, ".venv", "bin", "python"),
                    help="the venv whose keras onnxify reads (its torch backend)")
    ap.add_argument("--onnxify", default=os.path.join(ROOT, "build", "onnxify"))
    ap.add_argument("--exporters", default=",".join(DEFAULT_EXPORTERS),
                    help="of " + ",".join(EXPORTERS) + "; onnxify-server: `onnxify export --server` with a private "
                    "export server, timed on the model's second command (the first, which imports, is not counted); "
                    "its peak RSS is the server's or its export process's, the larger")
    ap.add_argument("--timeout", type=int, default=900)
    ap.add_argument("--mem-limit-gb", type=float, default=16, help="a process resident above this is stopped")
    ap.add_argument("--resume", action="store_true", help="keep OUT/cases.jsonl's rows, run only the rest")
    ap.add_argument("--out", default=os.path.join(HERE, "results"))
    ap.add_argument("--note", default="", help="a sentence for the summary (the build, the machine's load)")
    ap.add_argument("--from-jsonl", nargs="+", help="only write OUT/summary.md from these cases.jsonl files (a "
                    "later file's row for a model replaces an earlier one's)")
    o = ap.parse_args()
    o.exporters = o.exporters.split(",")
    versions = subprocess.run(
        [o.tf_python, "-c", "import os; os.environ['TF_CPP_MIN_LOG_LEVEL']='3'; import tensorflow as tf, keras, "
         "tf2onnx, onnxruntime as ort; print(f'tensorflow {tf.__version__}, keras {keras.__version__}, "
         "tf2onnx {tf2onnx.__version__}, onnxruntime {ort.__version__}')"],
        capture_output=True, text=True).stdout.strip()
    versions += ", " + subprocess.run([o.onnxify, "--version"], capture_output=True, text=True).stdout.strip()
    if o.from_jsonl:
        merged = {}
        for path in o.from_jsonl:
            for line in open(path):
                if line.strip():
                    row = json.loads(line)
                    merged[row["name"]] = row
        os.makedirs(o.out, exist_ok=True)
        with open(os.path.join(o.out, "cases.jsonl"), "w") as f:
            f.writelines(json.dumps(r) + "\n" for r in merged.values())
        with open(os.path.join(o.out, "summary.md"), "w") as f:
            f.write(summarize(list(merged.values()), versions, o.note))
        return
    if o.names:
        names = o.names.split(",")
    else:
        names = json.loads(subprocess.run(
            [o.tf_python, "-c", "import os, json; os.environ['KERAS_BACKEND']='tensorflow'; "
             "os.environ['TF_CPP_MIN_LOG_LEVEL']='3'; import keras; "
             "print(json.dumps(sorted(n for n in dir(keras.applications) if n[:1].isupper())))"],
            capture_output=True, text=True).stdout.strip().splitlines()[-1])
    os.makedirs(o.out, exist_ok=True)
    rows, jsonl = [], os.path.join(o.out, "cases.jsonl")
    if o.resume and os.path.exists(jsonl):
        rows = [json.loads(line) for line in open(jsonl) if line.strip()]
    done = {r["name"] for r in rows}
    with contextlib.ExitStack() as stack:
        o.server_env = None
        if "onnxify-server" in o.exporters:
            o.server_env = stack.enter_context(export_server.private_server(o.onnxify, os.environ))
        run_all(o, names, rows, done, jsonl)
    with open(os.path.join(o.out, "summary.md"), "w") as f:
        f.write(summarize(rows, versions, o.note))
    print(open(os.path.join(o.out, "summary.md")).read())


def run_all(o, names, rows, done, jsonl):
    with open(jsonl, "a" if o.resume else "w") as jl:
        for name in names:
            if name in done:
                continue
            with tempfile.TemporaryDirectory(prefix="onnxify-keras-tf-") as work:
                row = run_case(o, name, work)
            rows.append(row)
            jl.write(json.dumps(row) + "\n")
            jl.flush()
            print(name, {ex: row.get(ex, {}).get("verdict") for ex in o.exporters}, flush=True)


if __name__ == "__main__":
    main()
