print("mypkg.nested init")
from .deep import deep_value
