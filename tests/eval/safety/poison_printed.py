import torch

x = torch.zeros(3)
print(x)
