import numpy_not_installed as np

scale = np.float32(2.0)
if scale > 1:
    print("big")
