class Plugin:
    registry = []
    def __init_subclass__(cls, name=None, **kw):
        super().__init_subclass__(**kw)
        cls.plugin_name = name or cls.__name__.lower()
        Plugin.registry.append(cls.plugin_name)
class A(Plugin): pass
class B(Plugin, name="bee"): pass
class C(B): pass
print(Plugin.registry, C.plugin_name)
class Field:
    def __set_name__(self, owner, name):
        self.owner, self.name = owner.__name__, name
    def __get__(self, obj, objtype=None):
        if obj is None: return self
        return obj.__dict__.get(self.name, f"<unset {self.name}>")
    def __set__(self, obj, v): obj.__dict__[self.name] = v * 2
class Model:
    width = Field()
    height = Field()
m = Model(); m.width = 5
print(m.width, m.height, Model.width.name, Model.height.owner, type(Model.__dict__["width"]).__name__)
