import inspect
def f(a, b: int = 2, *args, c, d=4, **kw) -> str: pass
sig = inspect.signature(f)
print(sig, list(sig.parameters), sig.parameters["b"].default, sig.parameters["b"].annotation, sig.return_annotation)
print([p.kind.name for p in sig.parameters.values()], sig.parameters["c"].default is inspect.Parameter.empty)
class C:
    def m(self, x, y=1): pass
    @staticmethod
    def s(z): pass
print(inspect.signature(C.m), inspect.signature(C().m), inspect.signature(C.s), inspect.signature(C))
print(inspect.isclass(C), inspect.isfunction(f), inspect.ismethod(C().m), inspect.isfunction(C.m), inspect.ismodule(inspect))
b = sig.bind(1, c=3); b.apply_defaults(); print(b.arguments)
print(inspect.getdoc(f), [n for n, _ in inspect.getmembers(C) if not n.startswith("_")])
