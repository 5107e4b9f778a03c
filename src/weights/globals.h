// The allowlist: the only globals a checkpoint's pickle may name. Each builds data (tensors,
// containers, opaque records); none runs anything. A global outside this table is refused by name
// (DESIGN.md decision 8). Also resolved here, outside the table: `torch.<dtype>` (torch.float32, …)
// and the storage classes `torch.<X>Storage` in any torch module, as torch.load's find_class does.
// Internal to src/weights.
#pragma once

#include <string>
#include <string_view>

#include "weights/value.h"

namespace onnxify::weights {

// What a row does when called.
enum class GlobalRole : uint8_t {
  Function,     // callable with REDUCE only
  Class,        // callable with REDUCE or NEWOBJ, builds a modelled value (dict, set, tuple, …)
  Record,       // a data class we keep as an opaque InstanceObject (argparse.Namespace, numpy, …)
  Unsupported,  // known and harmless, but builds a tensor kind onnxify does not read
};

// X(Enum, module, name, role)
#define ONNXIFY_PICKLE_GLOBALS(X)                                                         \
  /* torch tensors and parameters (torch/_utils.py, torch/_tensor.py) */                  \
  X(RebuildTensor, "torch._utils", "_rebuild_tensor", Function)                           \
  X(RebuildTensorV2, "torch._utils", "_rebuild_tensor_v2", Function)                      \
  X(RebuildTensorV3, "torch._utils", "_rebuild_tensor_v3", Function)                      \
  X(RebuildParameter, "torch._utils", "_rebuild_parameter", Function)                     \
  X(RebuildParameterWithState, "torch._utils", "_rebuild_parameter_with_state", Function) \
  X(RebuildFromType, "torch._tensor", "_rebuild_from_type", Function)                     \
  X(RebuildFromTypeV2, "torch._tensor", "_rebuild_from_type_v2", Function)                \
  X(TorchTensor, "torch", "Tensor", Class)                                                \
  X(TorchTensorClass, "torch._tensor", "Tensor", Class)                                   \
  X(Parameter, "torch.nn.parameter", "Parameter", Class)                                  \
  X(TorchSize, "torch", "Size", Class)                                                    \
  X(TorchDevice, "torch", "device", Record)                                               \
  X(GetLayout, "torch.serialization", "_get_layout", Record)                              \
  X(RebuildSparse, "torch._utils", "_rebuild_sparse_tensor", Unsupported)                 \
  X(RebuildSparseCsr, "torch._utils", "_rebuild_sparse_csr_tensor", Unsupported)          \
  X(RebuildQTensor, "torch._utils", "_rebuild_qtensor", Unsupported)                      \
  X(RebuildMeta, "torch._utils", "_rebuild_meta_tensor_no_storage", Unsupported)          \
  X(RebuildFromNumpy, "torch._utils", "_rebuild_device_tensor_from_numpy", Unsupported)   \
  X(RebuildWrapperSubclass, "torch._utils", "_rebuild_wrapper_subclass", Unsupported)     \
  X(RebuildNested, "torch._utils", "_rebuild_nested_tensor", Unsupported)                 \
  /* Python containers and the helpers pickle uses to rebuild them */                     \
  X(OrderedDict, "collections", "OrderedDict", Class)                                     \
  X(DefaultDict, "collections", "defaultdict", Class)                                     \
  X(Dict, "builtins", "dict", Class)                                                      \
  X(List, "builtins", "list", Class)                                                      \
  X(Tuple, "builtins", "tuple", Class)                                                    \
  X(Set, "builtins", "set", Class)                                                        \
  X(FrozenSet, "builtins", "frozenset", Class)                                            \
  X(BytesType, "builtins", "bytes", Class)                                                \
  X(ByteArray, "builtins", "bytearray", Class)                                            \
  X(Int, "builtins", "int", Class)                                                        \
  X(Float, "builtins", "float", Class)                                                    \
  X(Str, "builtins", "str", Class)                                                        \
  X(Bool, "builtins", "bool", Class)                                                      \
  X(Complex, "builtins", "complex", Record)                                               \
  X(Slice, "builtins", "slice", Record)                                                   \
  X(Object, "builtins", "object", Record)                                                 \
  X(CodecsEncode, "_codecs", "encode", Function)                                          \
  X(Reconstructor, "copyreg", "_reconstructor", Function)                                 \
  /* data records real training checkpoints carry next to the weights */                  \
  X(Namespace, "argparse", "Namespace", Record)                                           \
  X(SimpleNamespace, "types", "SimpleNamespace", Record)                                  \
  X(NumpyScalar, "numpy.core.multiarray", "scalar", Record)                               \
  X(NumpyReconstruct, "numpy.core.multiarray", "_reconstruct", Record)                    \
  X(NumpyScalar2, "numpy._core.multiarray", "scalar", Record)                             \
  X(NumpyReconstruct2, "numpy._core.multiarray", "_reconstruct", Record)                  \
  X(NumpyFromBuffer, "numpy.core.numeric", "_frombuffer", Record)                         \
  X(NumpyFromBuffer2, "numpy._core.numeric", "_frombuffer", Record)                       \
  X(NumpyNdarray, "numpy", "ndarray", Record)                                             \
  X(NumpyDtype, "numpy", "dtype", Record)

enum class GlobalId : int {
#define X(e, module, name, role) e,
  ONNXIFY_PICKLE_GLOBALS(X)
#undef X
};

// The value GLOBAL / STACK_GLOBAL push for module.name: a dtype, a GlobalObject for a table row or
// a storage class. Throws Diagnostic naming the global when it is not allowed.
Value resolve_global(std::string_view module, std::string_view name, Heap& heap);

// Calls an allowlisted global: REDUCE (new_object = false) or NEWOBJ / NEWOBJ_EX (true).
// `args` is a Tuple. Throws Diagnostic on misuse (wrong arguments, NEWOBJ on a function, …).
Value call_global(const GlobalObject& g, const Value& args, Heap& heap, bool new_object);

// BUILD: applies `state` to `target` as Python's pickle would (__setstate__ or __dict__ update),
// for the kinds that have state. Throws Diagnostic for the others.
void build(const Value& target, const Value& state, Heap& heap);

}  // namespace onnxify::weights
