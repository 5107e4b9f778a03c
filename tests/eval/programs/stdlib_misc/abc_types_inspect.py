import abc, types, inspect
class Base(abc.ABC):
    @abc.abstractmethod
    def run(self): ...
    @property
    @abc.abstractmethod
    def name(self): ...
class Impl(Base):
    def run(self): return "ran"
    @property
    def name(self): return "impl"
try:
    Base()
except TypeError as e:
    print(e)
print(Impl().run(), Impl().name, inspect.isabstract(Base), inspect.isabstract(Impl), sorted(Base.__abstractmethods__))
class Half(Base):
    def run(self): return 1
try:
    Half()
except TypeError as e:
    print(e)
class Reg(abc.ABC): pass
Reg.register(int)
print(isinstance(3, Reg), issubclass(int, Reg), issubclass(str, Reg))
ns = types.SimpleNamespace(a=1, b="x")
ns.c = 3
print(ns, ns.a, types.SimpleNamespace() == types.SimpleNamespace(), vars(ns))
def f(a, b: int = 2, *args, c, d=4, **kw) -> str: pass
sig = inspect.signature(f)
print(sig, list(sig.parameters), sig.parameters["b"].default, sig.parameters["c"].kind, sig.return_annotation)
print(str(sig.parameters["b"]), repr(sig.parameters["a"]), sig.parameters["args"].kind.name)
ba = sig.bind(1, c=3)
ba.apply_defaults()
print(ba.arguments, ba.args, ba.kwargs)
class K:
    def __init__(self, x, y=1): pass
    def meth(self, z): pass
print(inspect.signature(K), inspect.signature(K(1).meth), inspect.signature(K.meth))
print(inspect.isclass(K), inspect.isfunction(f), inspect.ismethod(K(1).meth), inspect.isbuiltin(len), inspect.ismodule(inspect))
print(inspect.getdoc(K), inspect.cleandoc("  a\n    b\n  c"), inspect.getfullargspec(f).args)
print(type(f) is types.FunctionType, type(len) is types.BuiltinFunctionType, isinstance(inspect, types.ModuleType))
C = types.new_class("C", (object,), {}, lambda ns: ns.update({"v": 5}))
print(C.v, C.__name__)
print([n for n, _ in inspect.getmembers(K, inspect.isfunction)])
def gen(): yield 1
print(inspect.isgeneratorfunction(gen), inspect.isgenerator(gen()), inspect.isgeneratorfunction(f))
