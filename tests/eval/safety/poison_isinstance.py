# Whether an unknown value is an instance of a class is unknown too, not False.
import torch

x = torch.zeros(3)
if isinstance(x, int):
    print("int")
