import math
from itertools import product
def generate_anchors(scales, aspect_ratios):
    out = []
    for s, r in product(scales, aspect_ratios):
        h_ratio = math.sqrt(r)
        w_ratio = 1 / h_ratio
        ws, hs = w_ratio * s, h_ratio * s
        out.append(tuple(round(v) for v in (-ws / 2, -hs / 2, ws / 2, hs / 2)))
    return out
print(generate_anchors((32, 64), (0.5, 1.0, 2.0)))
def grid(feat, stride):
    return [(x * stride, y * stride) for y in range(feat) for x in range(feat)]
print(grid(2, 16), len(grid(7, 32)))
sizes = ((32,), (64,), (128,), (256,), (512,))
ratios = ((0.5, 1.0, 2.0),) * len(sizes)
print([len(s) * len(r) for s, r in zip(sizes, ratios)])
def box_iou(a, b):
    ix = max(0, min(a[2], b[2]) - max(a[0], b[0])); iy = max(0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    area = lambda t: (t[2] - t[0]) * (t[3] - t[1])
    return inter / (area(a) + area(b) - inter)
print(round(box_iou((0, 0, 10, 10), (5, 5, 15, 15)), 6), box_iou((0, 0, 1, 1), (2, 2, 3, 3)))
