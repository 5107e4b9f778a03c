# numpy data into torch: from_numpy, tensor, as_tensor; dtypes carried over; values read back.
import numpy as np
import torch

t = torch.from_numpy(np.arange(6).reshape(2, 3))
print(t.dtype, t.shape, t.tolist())
u = torch.tensor(np.linspace(0, 1, 3))
print(u.dtype, u.tolist())
v = torch.as_tensor(np.array([1, 2], dtype=np.float32))
print(v.dtype, v.tolist())
w = torch.tensor([np.float32(1.5), np.float32(2.5)])
print(w.dtype, w.tolist())
print(torch.tensor(np.float64(0.25)).dtype, torch.tensor(np.int32(3)).dtype, torch.tensor([np.array([1.0, 2.0]), np.array([3.0, 4.0])]).tolist())
table = np.array([[p / np.power(10000, 2 * (i // 2) / 4) for i in range(4)] for p in range(3)])
table[:, 0::2] = np.sin(table[:, 0::2])
table[:, 1::2] = np.cos(table[:, 1::2])
pe = torch.from_numpy(table).float()
print(pe.dtype, [round(x, 6) for x in pe.flatten().tolist()])
rates = [x.item() for x in np.linspace(0, 0.2, 3)]
print(rates)
widths = [int(np.ceil(w * 1.5 / 8) * 8) for w in [16, 24, 40]]
print(widths, np.prod(t.shape), int(np.prod((2, 3))))
x = torch.ones(2)
print((x * np.float32(2)).dtype, (x + np.arange(2.0)).dtype, (np.float64(3) * x).tolist(), (x - np.int64(1)).tolist())
print((x * np.array([2.0, 3.0])).tolist(), (np.float32(0.5) + x).dtype, (x > np.float64(0.5)).tolist())
t = torch.arange(10.0)
print(t[np.array([1, 3])].tolist(), t[np.int64(2)].item(), t[torch.from_numpy(np.arange(10) > 6)].tolist())
a = torch.linspace(0, 1, 5).numpy()
print(type(a).__name__, a.dtype, a.tolist(), np.cumsum(torch.arange(4).numpy()).tolist(), torch.ones(2, 3).numpy().shape)
