"""torch.distributed.device_mesh: the type, for isinstance checks and annotations; an export is one
process, so no mesh is made."""


class DeviceMesh:
    def __init__(self, *args, **kwargs):
        raise NotImplementedError("torch.distributed.device_mesh.DeviceMesh is not supported by onnxify (an export "
                                  "is one process)")


def init_device_mesh(*args, **kwargs):
    raise NotImplementedError("torch.distributed.device_mesh.init_device_mesh is not supported by onnxify (an export "
                              "is one process)")
