"""Tensors, dtypes, variables, tf.Module and tf.function."""

import torch
from torch import nn

# TensorFlow's dtypes are torch's: `x.dtype == tf.float32` compares the same objects.
DType = torch.dtype
float16 = half = torch.float16
bfloat16 = torch.bfloat16
float32 = torch.float32
float64 = double = torch.float64
int8, int16, int32, int64 = torch.int8, torch.int16, torch.int32, torch.int64
uint8, uint16, uint32, uint64 = torch.uint8, torch.uint16, torch.uint32, torch.uint64
bool = torch.bool
complex64 = torch.complex64
Tensor = torch.Tensor
newaxis = None
builtins_bool = type(True)  # `bool` is TensorFlow's dtype in this module

_BY_NAME = {"float16": float16, "half": float16, "bfloat16": bfloat16, "float32": float32, "float": float32,
            "float64": float64, "double": float64, "int8": int8, "int16": int16, "int32": int32, "int64": int64,
            "uint8": uint8, "uint16": uint16, "uint32": uint32, "uint64": uint64, "bool": bool,
            "complex64": complex64}


def as_dtype(type_value):
    if isinstance(type_value, torch.dtype):
        return type_value
    if isinstance(type_value, str) and type_value in _BY_NAME:
        return _BY_NAME[type_value]
    name = getattr(type_value, "__name__", None)  # numpy scalar types, Python's float/int/bool
    if name in _BY_NAME:
        return _BY_NAME[name]
    if type_value is float:
        return float32
    if type_value is int:
        return int32
    raise TypeError(f"Cannot convert {type_value!r} to a TensorFlow DType")


def _default_dtype(value):
    """TensorFlow's dtype for a Python value: float32 for floats, int32 for ints (torch would say int64)."""
    while isinstance(value, (list, tuple)) and value:
        value = value[0]
    if isinstance(value, builtins_bool):
        return bool
    if isinstance(value, int):
        return int32
    if isinstance(value, float):
        return float32
    return None


def is_tensor(x):
    return isinstance(x, torch.Tensor)


def convert_to_tensor(value, dtype=None, dtype_hint=None, name=None):
    if isinstance(value, torch.Tensor):
        return value if dtype is None else value.to(as_dtype(dtype))
    if isinstance(value, (list, tuple)) and any(isinstance(v, torch.Tensor) for v in value):
        out = torch.stack([convert_to_tensor(v) for v in value])
        return out if dtype is None else out.to(as_dtype(dtype))
    want = as_dtype(dtype) if dtype is not None else (as_dtype(dtype_hint) if dtype_hint is not None else
                                                        _default_dtype(value))
    return torch.tensor(value, dtype=want)


def constant(value, dtype=None, shape=None, name=None):
    t = convert_to_tensor(value, dtype=dtype)
    if shape is not None:
        shape = list(shape)
        if t.numel() == 1:
            t = t.reshape(()).expand(shape).clone()
        else:
            t = t.reshape(shape)
    return t


def cast(x, dtype, name=None):
    return convert_to_tensor(x).to(as_dtype(dtype))


class TensorShape:
    """A static shape: dims are ints (or symbolic sizes), None where unknown."""

    def __init__(self, dims):
        self._dims = None if dims is None else list(dims)

    def as_list(self):
        if self._dims is None:
            raise ValueError("as_list() is not defined on an unknown TensorShape.")
        return list(self._dims)

    @property
    def rank(self):
        return None if self._dims is None else len(self._dims)

    ndims = rank

    def __len__(self):
        return len(self._dims)

    def __iter__(self):
        return iter(self._dims)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return TensorShape(self._dims[i])
        return self._dims[i]

    def __eq__(self, other):
        return list(self) == list(other)

    def __repr__(self):
        return f"TensorShape({self._dims})"


class TensorSpec:
    """An input signature's entry; tf.function's input_signature is not needed to convert."""

    def __init__(self, shape, dtype=float32, name=None):
        self.shape = TensorShape(shape)
        self.dtype = as_dtype(dtype)
        self.name = name


def Variable(initial_value=None, trainable=None, validate_shape=True, caching_device=None, name=None,
             variable_def=None, dtype=None, import_scope=None, constraint=None, synchronization=None,
             aggregation=None, shape=None, experimental_enable_variable_lifting=True):
    """A variable is a parameter of the tf.Module it is assigned to; a checkpoint gives its value."""
    if callable(initial_value):
        initial_value = initial_value()
    value = convert_to_tensor(initial_value, dtype=dtype)
    trainable = True if trainable is None else trainable
    return nn.Parameter(value.detach().clone(), requires_grad=trainable and value.is_floating_point())


def _wrap(value):
    """The tracked form of an attribute: TensorFlow tracks lists and dicts of modules and variables
    (checkpoint paths "layers/0/w"), which torch's Module does not; they become its containers."""
    if isinstance(value, (list, tuple)) and value:
        if all(isinstance(v, nn.Module) for v in value):
            return nn.ModuleList(value)
        if all(isinstance(v, nn.Parameter) for v in value):
            return nn.ParameterList(value)
    if isinstance(value, dict) and value and all(isinstance(k, str) for k in value):
        if all(isinstance(v, nn.Module) for v in value.values()):
            return nn.ModuleDict(value)
        if all(isinstance(v, nn.Parameter) for v in value.values()):
            return nn.ParameterDict(value)
    return value


def _snake(name):
    out = []
    for i, ch in enumerate(name):
        if ch.isupper() and i and (not name[i - 1].isupper() or (i + 1 < len(name) and name[i + 1].islower())):
            out.append("_")
        out.append(ch.lower())
    return "".join(out)


class _NameScope:
    """tf.name_scope / Module.name_scope: names of graph ops, which an ONNX file does not keep."""

    def __init__(self, name=None):
        self.name = name

    def __enter__(self):
        return self.name

    def __exit__(self, *exc):
        return False


name_scope = _NameScope


class Module(nn.Module):
    """tf.Module: variables and modules assigned as attributes are tracked, by attribute name."""

    def __init_subclass__(cls, **kwargs):
        # A tf.Module is called through the __call__ it defines; as torch's forward it is also what
        # the exporter calls and whose parameters --input names.
        super().__init_subclass__(**kwargs)
        if "__call__" in cls.__dict__ and "forward" not in cls.__dict__:
            cls.forward = cls.__dict__["__call__"]

    def __init__(self, name=None):
        nn.Module.__init__(self)
        object.__setattr__(self, "_tf_name", name if name is not None else _snake(type(self).__name__))

    def __setattr__(self, name, value):
        nn.Module.__setattr__(self, name, _wrap(value))

    @property
    def name(self):
        return self._tf_name

    @property
    def name_scope(self):
        return _NameScope()

    @property
    def variables(self):
        return tuple(self.parameters())

    @property
    def trainable_variables(self):
        return tuple(p for p in self.parameters() if p.requires_grad)

    @property
    def submodules(self):
        return tuple(m for m in self.modules() if m is not self)

    @staticmethod
    def with_name_scope(method):
        return method


def function_module(func):
    """A TensorFlow model given as a function (`--model serve` for `@tf.function def serve(x)`): a
    module whose forward is the function, so its parameters are the model's inputs."""
    cls = type(getattr(func, "__name__", "function"), (nn.Module,), {"forward": staticmethod(func)})
    return cls()


def function(func=None, input_signature=None, autograph=True, jit_compile=None, reduce_retracing=False,
             experimental_implements=None, experimental_autograph_options=None, experimental_attributes=None,
             experimental_relax_shapes=None, experimental_compile=None, experimental_follow_type_hints=None):
    """The function itself: its Python control flow on tensors is converted as AutoGraph would."""
    if func is None:
        return lambda f: f
    return func



# TensorFlow's shape and tensor methods on onnxify's tensors, which are TensorFlow's tensors here.
def _as_list(self):
    return list(self)


torch._C._extend_type(torch.Size, "as_list", _as_list)
torch._C._extend_type(torch.Size, "rank", property(len))
torch._C._extend_type(torch.Size, "ndims", property(len))
torch._C._extend_type(torch.Tensor, "get_shape", lambda self: self.shape)
