# The submodule loads first (binding this package's 'helper' to it), then the function takes the
# name: pkg.helper is the function, as torch.nn.utils.spectral_norm is.
from rebound.helper import helper, Helper  # noqa: F401
