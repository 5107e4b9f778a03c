"""Helpers for tests that write IR text, turn it into ONNX with onnxify-opt and check the result.

    dense(np.array(...))          -> an IR `dense<...>[...]` literal for the array
    ref(path, offset, array)      -> an IR `ref<...>("path"@offset+len)` literal (array's bytes at offset)
    opt(ir_path, *args)           -> runs onnxify-opt, returns CompletedProcess (raises on failure
                                     unless check=False)
    check(model_path)             -> onnx.checker.check_model(full_check=True) on the file
    compare(got, want, ...)       -> asserts dtype, shape and values (allclose for floats)
"""

import os
import subprocess

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

IR_NAMES = {
    np.dtype("float32"): "float32", np.dtype("float64"): "float64", np.dtype("float16"): "float16",
    np.dtype("int64"): "int64", np.dtype("int32"): "int32", np.dtype("int16"): "int16", np.dtype("int8"): "int8",
    np.dtype("uint8"): "uint8", np.dtype("uint16"): "uint16", np.dtype("uint32"): "uint32",
    np.dtype("uint64"): "uint64", np.dtype("bool"): "bool",
}


def opt_binary():
    path = os.environ.get("ONNXIFY_OPT") or os.path.join(ROOT, "build", "onnxify-opt")
    if not os.path.exists(path):
        raise RuntimeError(f"onnxify-opt not found at {path} (build it, or set ONNXIFY_OPT)")
    return path


def ir_type(a):
    a = np.asarray(a)
    return f"{IR_NAMES[a.dtype]}[{', '.join(str(d) for d in a.shape)}]"


def _element(v, dtype):
    if dtype == np.dtype("bool"):
        return "true" if v else "false"
    if dtype.kind == "f":
        return repr(float(v))  # shortest repr of the exact value: reads back to the same bits
    return str(int(v))


def dense(a):
    a = np.asarray(a)
    return f"dense<{ir_type(a)}>[{', '.join(_element(v, a.dtype) for v in a.ravel())}]"


def ref(path, offset, a):
    a = np.asarray(a)
    return f'ref<{ir_type(a)}>("{path}"@{offset}+{a.nbytes})'


def opt(ir_path, *args, check=True):
    p = subprocess.run([opt_binary(), ir_path, *args], capture_output=True, text=True)
    if check and p.returncode != 0:
        raise AssertionError(f"onnxify-opt {ir_path} {' '.join(args)} failed ({p.returncode}):\n{p.stderr}")
    return p


def check(model_path):
    import onnx
    onnx.checker.check_model(model_path, full_check=True)


def compare(got, want, rtol=1e-5, atol=1e-5, what="output"):
    got = np.asarray(got)
    want = np.asarray(want)
    assert got.dtype == want.dtype, f"{what}: dtype {got.dtype}, expected {want.dtype}"
    assert got.shape == want.shape, f"{what}: shape {got.shape}, expected {want.shape}"
    if want.dtype.kind == "f":
        np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, err_msg=what)
    else:
        np.testing.assert_array_equal(got, want, err_msg=what)
