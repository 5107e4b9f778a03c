"""onnxify's torch: the PyTorch API for model code, recording an ONNX graph instead of computing.

Written for onnxify (not PyTorch's source). Tensors, dtypes, devices, torch.Size and every op come
from the native module torch._C; this package arranges them as PyTorch's namespaces. A name PyTorch
has but onnxify does not provide is an unknown value (reported only if the model uses it)."""
from torch import _C
from torch._C import Tensor, Size, dtype, device, SymInt
from torch._C import (uint8, int8, int16, short, int32, int, int64, long, float16, half, float32, float,
                      float64, double, complex32, chalf, complex64, cfloat, complex128, cdouble, bool, qint8,
                      quint8, qint32, bfloat16)
from torch._C import float8_e4m3fn, float8_e5m2, float8_e4m3fnuz, float8_e5m2fnuz
from torch._C._VariableFunctions import *  # noqa: F401,F403  every op of the table
from torch._C import _VariableFunctions as _VF
from torch._C import is_grad_enabled
import builtins as _builtins

__version__ = "2.14.1"
strided = "torch.strided"
sparse_coo = "torch.sparse_coo"
contiguous_format = "torch.contiguous_format"
channels_last = "torch.channels_last"
channels_last_3d = "torch.channels_last_3d"
preserve_format = "torch.preserve_format"
legacy_contiguous_format = contiguous_format  # the same object in PyTorch
layout = _builtins.type(strided)
memory_format = _builtins.type(contiguous_format)

inf = _builtins.float("inf")
nan = _builtins.float("nan")
pi = 3.141592653589793
e = 2.718281828459045


def is_tensor(obj):
    return _C._is_tensor(obj)


def is_storage(obj):
    return False


def is_floating_point(input):
    return input.is_floating_point()


def is_complex(input):
    return input.is_complex()


def numel(input):
    return input.numel()


def get_default_dtype():
    return _C._get_default_dtype()


def set_default_dtype(d):
    _C._set_default_dtype(d)


def get_default_device():
    """Conversion builds the model on no device; code asking gets PyTorch's default, the CPU."""
    return device("cpu")


def is_autocast_enabled(device_type=None):
    """No autocast region is active during conversion (an enabled one is refused: see autocast)."""
    return False


def is_autocast_cpu_enabled():
    return False


def get_autocast_dtype(device_type):
    """The dtype an autocast region of the device would compute in (PyTorch's defaults)."""
    return bfloat16 if str(device_type) == "cpu" else float16


def get_autocast_gpu_dtype():
    return float16


def get_autocast_cpu_dtype():
    return bfloat16


class autocast:
    """torch.autocast(device_type, dtype=None, enabled=True, cache_enabled=None). Disabled, or for a
    device other than the CPU, it changes nothing (transformers wraps rotary embeddings in one; the
    export reproduces CPU eager, where a CUDA region is inert: torch/amp/__init__.py); an enabled CPU
    region would change the dtypes ops compute in, which onnxify does not model: an error where it
    is entered."""

    def __init__(self, device_type, dtype=None, enabled=True, cache_enabled=None):
        self.device_type = device_type
        self.fast_dtype = dtype
        self._enabled = enabled

    def __enter__(self):
        if self._enabled and str(self.device_type) == "cpu":
            from torch._onnxify_support import unsupported
            unsupported("torch.autocast(enabled=True)", "convert the model with --dtype instead of an autocast region")
        return self

    def __exit__(self, *exc):
        return False

    def __call__(self, func):
        import functools

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with self:
                return func(*args, **kwargs)
        return wrapper


def typename(o):
    if isinstance(o, Tensor):
        return o.type()
    return _builtins.type(o).__qualname__


def _assert(condition, message):
    if _builtins.type(condition) is not Tensor and not condition:
        raise AssertionError(message)


def manual_seed(seed):
    return Generator()


def seed():
    return 0


def initial_seed():
    return 0


class Generator:
    """Random generators have no effect: nothing random is computed at conversion time."""

    def __init__(self, device="cpu"):
        self.device = device

    def manual_seed(self, seed):
        return self

    def seed(self):
        return 0

    def initial_seed(self):
        return 0


def use_deterministic_algorithms(mode, warn_only=False):
    pass


def are_deterministic_algorithms_enabled():
    return False


def set_num_threads(n):
    pass


def get_num_threads():
    return 1


def set_printoptions(*args, **kwargs):
    pass


class _NoGradLike:
    """no_grad / enable_grad / inference_mode / set_grad_enabled: context managers and decorators.
    Gradients never exist here; the flag is kept because code reads torch.is_grad_enabled()."""
    _mode = False

    def __init__(self, *args, **kwargs):
        self._prev = True

    def __enter__(self):
        self._prev = _C.is_grad_enabled()
        _C._set_grad_enabled(self._mode)
        return None

    def __exit__(self, *exc):
        _C._set_grad_enabled(self._prev)
        return False

    def __call__(self, fn):
        mode = self._mode

        def wrapper(*args, **kwargs):
            prev = _C.is_grad_enabled()
            _C._set_grad_enabled(mode)
            try:
                return fn(*args, **kwargs)
            finally:
                _C._set_grad_enabled(prev)
        wrapper.__name__ = getattr(fn, "__name__", "wrapper")
        wrapper.__doc__ = getattr(fn, "__doc__", None)
        wrapper.__wrapped__ = fn
        return wrapper

    def clone(self):
        return self.__class__()


class no_grad(_NoGradLike):
    _mode = False


class enable_grad(_NoGradLike):
    _mode = True


class inference_mode(_NoGradLike):
    _mode = False

    def __init__(self, mode=True):
        super().__init__()
        self._mode = not mode


class set_grad_enabled(_NoGradLike):
    def __init__(self, mode):
        super().__init__()
        self._mode = _builtins.bool(mode)
        self._prev = _C.is_grad_enabled()
        _C._set_grad_enabled(self._mode)

    def __enter__(self):
        return None


class finfo:
    _TABLE = {
        "float16": (16, 6.103515625e-05, 0.0009765625, 65504.0, 0.001, 3, 5.960464477539063e-08),
        "bfloat16": (16, 1.1754943508222875e-38, 0.0078125, 3.3895313892515355e+38, 0.01, 2, 9.183549615799121e-41),
        "float32": (32, 1.1754943508222875e-38, 1.1920928955078125e-07, 3.4028234663852886e+38, 1e-06, 6,
                    1.401298464324817e-45),
        "float64": (64, 2.2250738585072014e-308, 2.220446049250313e-16, 1.7976931348623157e+308, 1e-15, 15,
                    5e-324),
        "float8_e4m3fn": (8, 0.015625, 0.125, 448.0, 1.0, 0, 0.001953125),
        "float8_e5m2": (8, 6.103515625e-05, 0.25, 57344.0, 1.0, 0, 1.52587890625e-05),
        "float8_e4m3fnuz": (8, 0.0078125, 0.125, 240.0, 1.0, 0, 0.0009765625),
        "float8_e5m2fnuz": (8, 3.0517578125e-05, 0.125, 57344.0, 1.0, 0, 7.62939453125e-06),
    }

    def __init__(self, type=None):
        t = get_default_dtype() if type is None else type
        name = str(t).replace("torch.", "")
        if name not in finfo._TABLE:
            raise TypeError("torch.finfo() requires a floating point input type.")
        self.bits, self.tiny, self.eps, self.max, self.resolution, precision, self.smallest_subnormal = \
            finfo._TABLE[name]
        self.min = -self.max
        self.smallest_normal = self.tiny
        self.dtype = name

    def __repr__(self):
        return (f"finfo(resolution={self.resolution}, min={self.min:e}, max={self.max:e}, eps={self.eps:e}, "
                f"smallest_normal={self.tiny:e}, tiny={self.tiny:e}, dtype={self.dtype})")


class iinfo:
    _TABLE = {"uint8": (8, 0, 255), "int8": (8, -128, 127), "int16": (16, -32768, 32767),
              "int32": (32, -2147483648, 2147483647), "int64": (64, -9223372036854775808, 9223372036854775807),
              "bool": (8, 0, 1)}

    def __init__(self, type):
        name = str(type).replace("torch.", "")
        if name not in iinfo._TABLE:
            raise TypeError("torch.iinfo() requires an integer input type.")
        self.bits, self.min, self.max = iinfo._TABLE[name]
        self.dtype = name

    def __repr__(self):
        return f"iinfo(min={self.min}, max={self.max}, dtype={self.dtype})"


class SymFloat:
    """A float computed from symbolic sizes, as torch.export traces them. Sizes here are SymInts and
    what Python computes from them is int or float, as in eager PyTorch (which has no symbolic values
    at all): no value is a SymFloat, and code that checks for one (Keras' convert_to_tensor) takes its
    eager path."""

    def __init__(self, *args, **kwargs):
        raise TypeError("torch.SymFloat values are made by torch.export's tracing, not by calling the class")


class SymBool:
    """A bool computed from symbolic sizes, as torch.export traces them; none here (see SymFloat)."""

    def __init__(self, *args, **kwargs):
        raise TypeError("torch.SymBool values are made by torch.export's tracing, not by calling the class")


class tensortype(type):
    """The metaclass of the legacy tensor types (torch.FloatTensor, torch.cuda.LongTensor, ...): calling
    one is PyTorch's legacy constructor with its dtype (sizes, a sequence of values, or a tensor of that
    dtype); isinstance(t, torch.FloatTensor) holds for a float32 tensor. Tensors here are on the CPU
    (t.is_cuda is False), so no tensor is an instance of a torch.cuda type, as in PyTorch on the CPU."""

    def __call__(cls, *args, **kwargs):
        return _C._legacy_new(cls.dtype, *args, **kwargs)

    def __instancecheck__(cls, obj):
        return isinstance(obj, Tensor) and obj.dtype == cls.dtype and obj.is_cuda == cls.is_cuda

    def __repr__(cls):
        return f"<class '{cls.__module__}.{cls.__name__}'>"


_LEGACY_TYPES = [("ByteTensor", uint8), ("CharTensor", int8), ("ShortTensor", int16), ("IntTensor", int32),
                 ("LongTensor", int64), ("HalfTensor", float16), ("FloatTensor", float32), ("DoubleTensor", float64),
                 ("BFloat16Tensor", bfloat16), ("BoolTensor", bool)]


def _legacy_types(module, is_cuda):
    return {name: tensortype(name, (), {"dtype": d, "is_cuda": is_cuda, "is_sparse": False, "__module__": module})
            for name, d in _LEGACY_TYPES}


globals().update(_legacy_types("torch", False))


def result_type(tensor1, tensor2):
    return (tensor1 + tensor2).dtype if isinstance(tensor1, Tensor) else (tensor2 + tensor1).dtype


def promote_types(type1, type2):
    return (zeros([1], dtype=type1) + zeros([1], dtype=type2)).dtype


def can_cast(from_, to):
    if from_.is_complex and not to.is_complex:
        return False
    if from_.is_floating_point and not (to.is_floating_point or to.is_complex):
        return False
    if from_ is not bool and to is bool:
        return False
    return True


def broadcast_shapes(*shapes):
    result = []
    for shape in shapes:
        shape = [shape] if isinstance(shape, _builtins.int) else list(shape)
        n = _builtins.max(len(result), len(shape))  # (torch.max is `max` in this module)
        result = [1] * (n - len(result)) + result
        shape = [1] * (n - len(shape)) + list(shape)
        result = [_broadcast_dim(a, b) for a, b in zip(result, shape)]
    return Size(result)


def _broadcast_dim(a, b):
    # Decided on static sizes; two sizes only known at run time broadcast to the larger (the other
    # being 1 or equal), without asking Python about their values.
    if isinstance(b, _builtins.int) and b == 1:
        return a
    if isinstance(a, _builtins.int) and a == 1:
        return b
    if isinstance(a, _builtins.int) and isinstance(b, _builtins.int) and a != b:
        raise RuntimeError(f"Shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between "
                           f"{a} and {b}")
    return _builtins.max(a, b)


# torch.NAME forms of ops whose PyTorch-exact computation is written in torch.nn.functional
# (resolved when called: torch.nn is imported at the end of this module).
def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    return _functional.cosine_similarity(x1, x2, dim, eps)


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    return _functional.pairwise_distance(x1, x2, p, eps, keepdim)


def bilinear(input1, input2, weight, bias=None):
    return _functional.bilinear(input1, input2, weight, bias)


def conv_tbc(input, weight, bias, pad=0):
    """fairseq's time-first convolution: input [T, B, C_in], weight [K, C_in, C_out], bias [C_out] -> [T', B,
    C_out]; the same cross-correlation as conv1d on [B, C_in, T] with the weight as [C_out, C_in, K]."""
    out = conv1d(input.permute(1, 2, 0), weight.permute(2, 1, 0), bias, padding=pad)
    return out.permute(2, 0, 1)


def compile(model=None, *, fullgraph=False, dynamic=None, backend="inductor", mode=None, options=None, name=None,
            disable=False, **kwargs):
    """torch.compile changes how PyTorch runs a model, not what it computes: onnxify records the model
    as written. As in PyTorch, compile(fn) and @compile / @compile(mode=...) give the function (here
    unchanged), and compile(module) gives an OptimizedModule that holds it as `_orig_mod` (so the
    state_dict keys of a compiled model, `_orig_mod.` included, bind)."""
    if model is None:
        def fn(model):
            if model is None:
                raise RuntimeError("Model can't be None")
            return compile(model, fullgraph=fullgraph, dynamic=dynamic, backend=backend, mode=mode, options=options,
                           name=name, disable=disable, **kwargs)
        return fn
    if mode is not None and options is not None:
        raise RuntimeError("Either mode or options can be specified, but both can't be specified at the same time.")
    return _dynamo.optimize(backend, disable=disable)(model)


from torch import return_types  # noqa: E402
from torch import nn, jit, fx, autograd, cuda, backends, overrides, hub, utils, types, onnx, version  # noqa: E402
from torch import profiler  # noqa: E402,F401  profiling regions are inert (torch/profiler)
from torch import compiler, _dynamo  # noqa: E402,F401  PyTorch 2.x: compilation hints, all no-ops
from torch import xpu, mps, accelerator  # noqa: E402,F401  other accelerators: none available, as torch.cuda
from torch import _subclasses  # noqa: E402,F401  isinstance(x, torch._subclasses.FakeTensor) is False
from torch import functional  # noqa: E402,F401
import torch  # noqa: E402,F401  torch.torch is torch, as in PyTorch (`class M(torch.torch.nn.Module)`)
from torch import distributions  # noqa: E402,F401  eval-time distributions (sampling is an error)
from torch.nn import functional as _functional  # noqa: E402,F401
from torch.nn.parameter import Parameter as _Parameter  # noqa: E402,F401
from torch.utils import data as _data  # noqa: E402,F401

def einsum(*args):
    """torch.einsum(equation, *operands) or torch.einsum(equation, [operands]), as PyTorch's wrapper."""
    if len(args) < 2:
        raise ValueError("einsum(): must specify the equation string and at least one operand, "
                         "or at least one operand and its subscripts list")
    equation, operands = args[0], args[1:]
    if not isinstance(equation, _builtins.str):
        from torch._onnxify_support import unsupported
        return unsupported("torch.einsum", "the sublist form einsum(op1, sublist1, ...); use an equation string")
    if len(operands) == 1 and isinstance(operands[0], (_builtins.list, _builtins.tuple)):
        operands = operands[0]
    return _VF.einsum(equation, _builtins.list(operands))


def split(tensor, split_size_or_sections, dim=0):
    """torch.split is a Python function in PyTorch, with its own parameter names (split_size_or_sections=
    as a keyword); Tensor.split is the op."""
    return tensor.split(split_size_or_sections, dim)


def meshgrid(*tensors, indexing=None):
    """torch.meshgrid(*tensors, indexing="ij" | "xy"): for 0-d or 1-d tensors of sizes S0..Sn-1, grid i
    is tensor i expanded along axis i of the shape (S0, ..., Sn-1) (a view, as in PyTorch). "xy" swaps
    the roles of the first two axes (grids of shape (S1, S0, ...)). Without indexing PyTorch warns and
    uses "ij"."""
    if len(tensors) == 1 and isinstance(tensors[0], (_builtins.list, _builtins.tuple)):
        tensors = tensors[0]
    tensors = _builtins.list(tensors)
    if not tensors:
        raise RuntimeError("meshgrid expects a non-empty TensorList")
    for t in tensors[1:]:
        if t.dtype != tensors[0].dtype:
            raise RuntimeError("meshgrid expects all tensors to have the same dtype")
    for t in tensors:
        if t.dim() > 1:
            raise RuntimeError(f"torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got a tensor of "
                               f"{t.dim()} dimensions")
    if indexing is None:
        import warnings
        warnings.warn("torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument.")
        indexing = "ij"
    if indexing not in ("ij", "xy"):
        raise RuntimeError(f'torch.meshgrid: indexing must be one of "xy" or "ij", but received: {indexing}')
    swap = indexing == "xy" and len(tensors) >= 2
    if swap:
        tensors[0], tensors[1] = tensors[1], tensors[0]
    sizes = [t.numel() for t in tensors]
    grids = []
    for i, t in enumerate(tensors):
        view = [1] * len(tensors)
        view[i] = -1
        grids.append(t.reshape(view).expand(sizes))
    if swap:
        grids[0], grids[1] = grids[1], grids[0]
    return _builtins.tuple(grids)


def cartesian_prod(*tensors):
    """Rows of every combination of the 1-d inputs' elements (itertools.product order)."""
    for t in tensors:
        if t.dim() != 1:
            raise RuntimeError(f"Expect a 1D vector, but got shape {_builtins.list(t.shape)}")
    if len(tensors) == 1:
        return tensors[0]
    return stack([g.flatten() for g in meshgrid(tensors, indexing="ij")], 1)


def _triangle_indices(row, col, offset, dtype, upper):
    """The (row, col) coordinates of a matrix's triangle, row by row: a constant for given sizes."""
    r = arange(row).unsqueeze(1).expand(row, col)
    c = arange(col).unsqueeze(0).expand(row, col)
    keep = (c - r >= offset) if upper else (c - r <= offset)
    return stack([r[keep], c[keep]]).to(dtype)


def triu_indices(row, col, offset=0, *, dtype=long, device=None, layout=None):
    return _triangle_indices(row, col, offset, dtype, True)


def tril_indices(row, col, offset=0, *, dtype=long, device=None, layout=None):
    return _triangle_indices(row, col, offset, dtype, False)


def __getattr__(name):
    from torch._onnxify_support import missing
    from torch._api_names import TORCH
    return missing("torch", name, TORCH)


from torch._numpy_interop import from_numpy, tensor, as_tensor, asarray  # noqa: E402,F811  numpy data
import torch.optim, torch.distributed, torch.ao  # noqa: E402,F401  non-graph packages model files mention
import torch.quantization  # noqa: E402,F401  the older name of torch.ao.quantization
import torch.linalg  # noqa: E402,F401  torch.linalg as far as ONNX expresses it (det, inv, solve, norms)
from torch.linalg import _logdet as logdet, slogdet  # noqa: E402,F401
from torch.linalg import _cholesky_legacy as cholesky  # noqa: E402,F401
import torch.fft  # noqa: E402,F401  torch.fft as ONNX DFT (complex results as real/imaginary pairs)
import torch.special  # noqa: E402,F401  torch.special: i0, sinc and the aliases of torch functions
from torch.fft import _view_as_real as view_as_real, _view_as_complex as view_as_complex, _stft as stft  # noqa: E402,F401
from torch.fft import _hann_window as hann_window, _hamming_window as hamming_window  # noqa: E402,F401
from torch.fft import _blackman_window as blackman_window, _bartlett_window as bartlett_window  # noqa: E402,F401
from torch.fft import _complex as complex, _polar as polar  # noqa: E402,F401
from torch.fft import _real as real, _imag as imag  # noqa: E402,F401
import torch.sparse  # noqa: E402,F401  torch.sparse on dense tensors (no sparse layouts)
import torch.amp  # noqa: E402,F401  autocast regions for other devices than the CPU: no-ops
from torch.sparse import mm as spmm, sparse_coo_tensor, sparse_csr_tensor  # noqa: E402,F401
from torch._api_gap import (atleast_1d, atleast_2d, atleast_3d, hstack, vstack, row_stack, dstack,  # noqa: E402,F401
                            column_stack, broadcast_tensors, aminmax, bucketize, searchsorted, tensordot,
                            tensor_split, take, masked_scatter, index_put, index_put_, bitwise_left_shift,
                            bitwise_right_shift, unsafe_chunk, unsafe_split, unsafe_split_with_sizes, fill, fill_,
                            zero_, frobenius_norm, kl_div, binary_cross_entropy_with_logits, convolution, lstm_cell,
                            affine_grid_generator, embedding_bag, embedding_renorm_, renorm, histc)


def _install_runtime_random():
    # Python's unseeded `random` in forward draws at run time, while the model is built as if seeded with
    # 0 (torch/_onnxify_support.py).
    import _onnxify
    from torch._onnxify_support import runtime_random, unseeded_seed
    _onnxify.runtime_random = runtime_random
    _onnxify.unseeded_seed = unseeded_seed


_install_runtime_random()
