from ..util import helper
from .. import sub
deep_value = helper("deep") + " / " + sub.__name__
