"""torch.distributions.transforms (each transform's call, inverse and log |det J|), biject_to /
transform_to, TransformedDistribution and a Transform subclass, checked against PyTorch 2.14 eager
in ONNX Runtime at two batch sizes (harness.py)."""
import pytest

from harness import Batch, Case, check

SHAPES = [{"N": 2}, {"N": 5}]
CASES = [
    Case("elementwise_transforms", "distributions_transforms.py", "ElementwiseTransforms()", {"x": "float32[N,4]"},
         shapes=SHAPES),
    Case("vector_transforms", "distributions_transforms.py", "VectorTransforms()",
         {"x": "float32[N,4]", "m": "float32[N,3,3]"}, shapes=SHAPES),
    Case("composed_and_registry", "distributions_transforms.py", "ComposedAndRegistry()", {"x": "float32[N,4]"},
         shapes=SHAPES),
    Case("user_transform", "distributions_transforms.py", "UserTransform()", {"x": "float32[N,4]"}, shapes=SHAPES),
]

BATCH = Batch(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_distributions_transforms(case):
    check(BATCH.get(case))
