# Attribute access on instances and classes, properties, like module trees do.
class Conv:
    kind = "conv"
    def __init__(self, cin, cout, k):
        self.in_channels = cin
        self.out_channels = cout
        self.kernel_size = (k, k)
        self.training = True
    @property
    def params(self):
        return self.in_channels * self.out_channels * self.kernel_size[0] * self.kernel_size[1]
def run():
    layers = [Conv(i % 64 + 1, (i * 7) % 64 + 1, 3) for i in range(200)]
    total = 0
    for _ in range(1000):
        for l in layers:
            total += l.params + len(l.kind)
            if l.training:
                l.out_channels = l.out_channels
    return total
print(run())
