import types
ns = types.SimpleNamespace(a=1, b="x")
ns.c = [1]
print(ns, ns.a, vars(ns), ns == types.SimpleNamespace(a=1, b="x", c=[1]))
def f(): pass
class C:
    def m(self): pass
print(isinstance(f, types.FunctionType), isinstance(C().m, types.MethodType), isinstance(len, types.BuiltinFunctionType))
print(isinstance(types, types.ModuleType), type(x for x in []) is types.GeneratorType, types.NoneType is type(None) if hasattr(types, "NoneType") else True)
mp = types.MappingProxyType({"k": 1}); print(mp["k"], list(mp), len(mp))
try:
    mp["k"] = 2
except TypeError as e:
    print("TypeError", e)
Dyn = types.new_class("Dyn", (object,), {}, lambda ns: ns.update({"v": 5}))
print(Dyn.v, Dyn.__name__)
