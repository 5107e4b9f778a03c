"""weakref (onnxify's stdlib subset). The evaluator has no weak references: these hold strong ones,
which is observable only through garbage collection, which evaluated code cannot observe."""


class ref:
    def __init__(self, ob, callback=None):
        self._ob = ob

    def __call__(self):
        return self._ob

    def __eq__(self, other):
        if isinstance(other, ref):
            return self._ob is other._ob
        return NotImplemented

    def __hash__(self):
        return hash(self._ob)


ReferenceType = ref


def proxy(obj, callback=None):
    return obj


def getweakrefcount(obj):
    return 0


class WeakValueDictionary(dict):
    pass


class WeakKeyDictionary(dict):
    pass


class WeakSet(set):
    pass


class WeakMethod(ref):
    pass


class finalize:
    def __init__(self, obj, func, /, *args, **kwargs):
        self.alive = True

    def __call__(self, _=None):
        return None

    def detach(self):
        return None
