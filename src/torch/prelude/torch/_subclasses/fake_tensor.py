"""torch._subclasses.fake_tensor: the types exist for isinstance checks; nothing is one."""


class FakeTensor:
    def __new__(cls, *args, **kwargs):
        raise NotImplementedError("torch._subclasses.FakeTensor is not supported by onnxify")


class FakeTensorMode:
    def __init__(self, *args, **kwargs):
        raise NotImplementedError("torch._subclasses.FakeTensorMode is not supported by onnxify")
