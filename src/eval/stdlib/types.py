"""Names for the types the interpreter uses (onnxify's stdlib subset)."""
import _onnxify

FunctionType = _onnxify.FunctionType
LambdaType = FunctionType
MethodType = _onnxify.MethodType
BuiltinFunctionType = _onnxify.BuiltinFunctionType
BuiltinMethodType = BuiltinFunctionType
ModuleType = _onnxify.ModuleType
GeneratorType = _onnxify.GeneratorType
CodeType = _onnxify.CodeType
MappingProxyType = _onnxify.MappingProxyType
GenericAlias = _onnxify.GenericAlias
UnionType = _onnxify.UnionType
WrapperDescriptorType = _onnxify.WrapperDescriptorType
MethodWrapperType = _onnxify.MethodWrapperType
MethodDescriptorType = _onnxify.MethodDescriptorType
ClassMethodDescriptorType = MethodDescriptorType
GetSetDescriptorType = _onnxify.GetSetDescriptorType
MemberDescriptorType = GetSetDescriptorType
CellType = _onnxify.CellType
NoneType = _onnxify.NoneType
EllipsisType = _onnxify.EllipsisType
NotImplementedType = _onnxify.NotImplementedType
DynamicClassAttribute = property


class SimpleNamespace:
    def __init__(self, /, **kwargs):
        self.__dict__.update(kwargs)

    def __repr__(self):
        items = ("{}={!r}".format(k, v) for k, v in self.__dict__.items())
        return "{}({})".format("namespace" if type(self) is SimpleNamespace else type(self).__name__, ", ".join(items))

    def __eq__(self, other):
        if isinstance(self, SimpleNamespace) and isinstance(other, SimpleNamespace):
            return self.__dict__ == other.__dict__
        return NotImplemented


def resolve_bases(bases):
    new_bases = []
    changed = False
    for base in bases:
        if isinstance(base, type):
            new_bases.append(base)
            continue
        meth = getattr(base, "__mro_entries__", None)
        if meth is None:
            new_bases.append(base)
            continue
        new_bases.extend(meth(bases))
        changed = True
    return tuple(new_bases) if changed else bases


def prepare_class(name, bases=(), kwds=None):
    kwds = {} if kwds is None else dict(kwds)
    if "metaclass" in kwds:
        meta = kwds.pop("metaclass")
    else:
        meta = type(bases[0]) if bases else type
    if isinstance(meta, type):
        for base in bases:
            bm = type(base)
            if issubclass(meta, bm):
                continue
            if issubclass(bm, meta):
                meta = bm
                continue
            raise TypeError("metaclass conflict: the metaclass of a derived class must be a (non-strict) "
                            "subclass of the metaclasses of all its bases")
    if hasattr(meta, "__prepare__"):
        ns = meta.__prepare__(name, bases, **kwds)
    else:
        ns = {}
    return meta, ns, kwds


def new_class(name, bases=(), kwds=None, exec_body=None):
    resolved = resolve_bases(bases)
    meta, ns, kwds = prepare_class(name, resolved, kwds)
    if exec_body is not None:
        exec_body(ns)
    if resolved is not bases:
        ns["__orig_bases__"] = bases
    return meta(name, resolved, ns, **kwds)


def coroutine(func):
    return func


def _f():
    pass


FrameType = type("frame", (), {})
TracebackType = type("traceback", (), {})
CoroutineType = type("coroutine", (), {})
AsyncGeneratorType = type("async_generator", (), {})
