"""torch.autograd.gradcheck: numerical gradient checks are tests run beside a model, never inside
forward. Importing them works (star imports included, as files that gather their test helpers do);
calling one is a clear error, gradients not being computed during conversion."""
__all__ = ["gradcheck", "gradgradcheck", "GradcheckError", "get_numerical_jacobian", "get_analytical_jacobian",
           "get_numerical_jacobian_wrt_specific_input"]


class GradcheckError(RuntimeError):
    pass


def _unsupported(name):
    from torch._onnxify_support import unsupported
    return unsupported(f"torch.autograd.gradcheck.{name}", "gradients are not computed during conversion")


def gradcheck(*args, **kwargs):
    return _unsupported("gradcheck")


def gradgradcheck(*args, **kwargs):
    return _unsupported("gradgradcheck")


def get_numerical_jacobian(*args, **kwargs):
    return _unsupported("get_numerical_jacobian")


def get_analytical_jacobian(*args, **kwargs):
    return _unsupported("get_analytical_jacobian")


def get_numerical_jacobian_wrt_specific_input(*args, **kwargs):
    return _unsupported("get_numerical_jacobian_wrt_specific_input")
