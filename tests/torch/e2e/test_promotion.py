"""PyTorch's dtype promotion, checked against PyTorch itself: the exported model's output dtype and
values must equal eager PyTorch's for tensor-tensor, tensor-zero-dim-tensor and tensor-scalar
operands of every pair of dtypes (the harness compares dtypes exactly)."""
import itertools

import pytest

from harness import Batch, Case, check

DTYPES = ["float32", "float64", "float16", "int64", "int32", "int16", "int8", "uint8", "bool"]
N2 = [{"N": 2}, {"N": 3}]


def cases():
    out = []
    for a, b in itertools.product(DTYPES, DTYPES):
        out.append(Case(f"mul_{a}_{b}", "ops.py", "Fn('torch.mul')", {"x": f"{a}[N,3]", "y": f"{b}[3]"}, shapes=N2))
        if a == b == "bool":
            out.append(Case("add_bool_bool", "ops.py", "Fn('torch.add')", {"x": "bool[N,3]", "y": "bool[3]"},
                            shapes=N2))
        out.append(Case(f"mul_{a}_{b}_zerodim", "ops.py", "Fn('torch.mul')", {"x": f"{a}[N,3]", "y": f"{b}[]"},
                        shapes=N2))
    for a in DTYPES:
        for scalar in ("2", "2.5", "True"):
            out.append(Case(f"mul_{a}_scalar_{scalar}", "ops.py", f"Fn('torch.mul', {scalar})", {"x": f"{a}[N,3]"},
                            shapes=N2))
    return out


CASES = cases()
BATCH = Batch(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_promotion(case):
    check(BATCH.get(case))
