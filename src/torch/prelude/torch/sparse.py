"""torch.sparse on strided (dense) tensors (issue 15).

onnxify has no sparse layouts: ONNX Runtime runs dense tensors, so a model whose "sparse" matrix
reaches forward dense (an input or a buffer, as graph code often receives an adjacency or Laplacian
matrix) computes the same values with the dense op, exactly as PyTorch's own dispatch does for
strided arguments: `torch.sparse.mm`/`addmm` and `torch.spmm` become MatMul/Gemm. The functions that
PyTorch runs only on sparse tensors (`sum`, `softmax`, `log_softmax`) raise PyTorch's error on a
dense one; making a sparse tensor is a clear onnxify error."""
import torch
from torch._onnxify_support import unsupported as _unsupported


def mm(mat1, mat2, reduce="sum"):
    if reduce != "sum":
        raise RuntimeError(f"torch.sparse.mm: reduce={reduce!r} needs a sparse CSR mat1")
    return torch.mm(mat1, mat2)


def addmm(mat, mat1, mat2, *, beta=1.0, alpha=1.0):
    return torch.addmm(mat, mat1, mat2, beta=beta, alpha=alpha)


def _sparse_only(name):
    def f(input, *args, **kwargs):
        raise RuntimeError(f"torch.sparse.{name}: expected a sparse tensor, but got a strided one")
    f.__name__ = name
    return f


sum = _sparse_only("sum")
softmax = _sparse_only("softmax")
log_softmax = _sparse_only("log_softmax")


def _sparse_tensor(*args, **kwargs):
    return _unsupported("sparse tensors", "onnxify computes with dense tensors: pass the matrix dense (or call "
                        ".to_dense() before it reaches the model)")


sparse_coo_tensor = _sparse_tensor
sparse_csr_tensor = _sparse_tensor
