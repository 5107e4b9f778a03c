// Public header of src/ir: the graph IR (DESIGN.md: Graph, Node, Value, types, symbolic dims,
// regions for If/Loop/Scan, the text printer and parser, the verifier).
//
//   element_type.h  the one table of tensor element types
//   dim.h           DimExpr, the symbolic-shape algebra
//   type.h          value types (tensor / sequence / optional / unknown)
//   tensor.h        constant data (zero-copy Bytes)
//   attribute.h     attributes of every ONNX kind
//   graph.h         Graph, Node, Value, uses, NameTable
//   text.h          the text form: grammar, print(), parse()
//   verifier.h      verify(), node_diagnostic()
//   op_rules.h      rules for composite ("onnxify" domain) ops
//   composite_ops.h the composite-op table (composite_ops.def): ports, attributes, defaults
//   onnx_versions.h ONNX op versions after the newest opset libonnx 1.12 knows (17)
#pragma once

#include "ir/attribute.h"
#include "ir/composite_ops.h"
#include "ir/dim.h"
#include "ir/element_type.h"
#include "ir/graph.h"
#include "ir/onnx_versions.h"
#include "ir/op_rules.h"
#include "ir/tensor.h"
#include "ir/text.h"
#include "ir/type.h"
#include "ir/verifier.h"
