// cse: common-subexpression elimination, region-aware.
//
// Two nodes are the same computation when they have the same domain, op, inputs (in any order for
// commutative ops), attributes (as a set) and output count. Scopes follow regions: a node may be
// replaced by an earlier equivalent in its own graph or in an enclosing graph (that value is visible
// by implicit capture), never by one inside a sibling region or a region it does not sit in. Nodes
// with regions are not merged (their bodies are not compared), but their regions are processed.
// Random ops are never merged. Constants are merged too: identical initializers within a scope.
#include <algorithm>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <xxhash.h>

#include "passes/passes.h"

namespace onnxify::passes {

namespace {

using ir::Attribute;
using ir::Graph;
using ir::Node;
using ir::Value;


bool commutative(const Node& n) {
  static constexpr std::string_view kOps[] = {"Add",        "Mul",       "Max",       "Min", "Sum",
                                              "Mean",       "And",       "Or",        "Xor", "Equal",
                                              "BitwiseAnd", "BitwiseOr", "BitwiseXor"};
  if (!n.domain().empty()) return false;
  return std::find(std::begin(kOps), std::end(kOps), n.op_type()) != std::end(kOps);
}

std::vector<const Value*> key_inputs(const Node& n) {
  std::vector<const Value*> in(n.inputs().begin(), n.inputs().end());
  if (commutative(n)) std::sort(in.begin(), in.end());
  return in;
}

struct NodeHash {
  size_t operator()(const Node* n) const {
    size_t h = std::hash<std::string>()(n->op_type()) ^ (std::hash<std::string>()(n->domain()) << 1);
    for (const Value* v : key_inputs(*n)) h = h * 31 + std::hash<const void*>()(v);
    size_t attrs = 0;
    for (const auto& [k, a] : n->attrs()) attrs += std::hash<std::string>()(k) ^ a.hash();  // order-free
    return h ^ attrs ^ n->num_outputs();
  }
};

struct NodeEq {
  bool operator()(const Node* a, const Node* b) const {
    if (a->op_type() != b->op_type() || a->domain() != b->domain() || a->num_outputs() != b->num_outputs() ||
        a->attrs().size() != b->attrs().size() || key_inputs(*a) != key_inputs(*b))
      return false;
    for (size_t i = 0; i < a->num_outputs(); ++i)
      if ((a->output(i) == nullptr) != (b->output(i) == nullptr)) return false;
    for (const auto& [k, v] : a->attrs()) {
      const Attribute* w = b->attr(k);
      if (!w || !v.equals(*w)) return false;
    }
    return true;
  }
};

// Comparing gigabytes of weights byte by byte is not worth it, nor computing produced bytes (folded
// weights the writer computes as it writes them) to compare them: such tensors merge only when
// they are the very same bytes.
bool by_identity(const ir::Tensor& t) { return t.nbytes() > (1u << 20) || t.bytes().is_produced(); }

struct TensorHash {
  size_t operator()(const Value* v) const {
    const auto& t = *v->initializer();
    // As TensorEq compares: big tensors by their bytes' address, the others by all their bytes (a
    // hash of a prefix only put a thousand copies of one array, differing past it, in one bucket).
    if (by_identity(t)) return std::hash<const void*>()(t.bytes().identity()) ^ std::hash<size_t>()(t.nbytes());
    size_t h = t.content_hash();
    // content_hash covers the first 4 KiB. XXH3 for the rest: a model's small weights add up to tens
    // of megabytes, which std::hash's byte hash took a measured 5% of a resnet50 export to read.
    if (t.dtype() != ir::ElementType::String && t.nbytes() > 4096) h ^= XXH3_64bits(t.data(), t.nbytes()) * 31;
    return h;
  }
};
struct TensorEq {
  bool operator()(const Value* a, const Value* b) const {
    const auto& x = *a->initializer();
    const auto& y = *b->initializer();
    if (by_identity(x) || by_identity(y)) return x.bytes().identity() == y.bytes().identity() && x.equals(y);
    return x.equals(y);
  }
};

class Cse {
 public:
  void graph(Graph& g) {
    nodes_.emplace_back();
    consts_.emplace_back();
    for (size_t i = 0; i < g.num_initializers();) {
      Value* v = g.initializer(i);
      if (Value* same = find_const(v)) {
        v->replace_all_uses_with(same);
        g.erase_initializer(v);
        continue;
      }
      consts_.back().emplace(v, v);
      ++i;
    }
    for (Node* n : g.nodes()) {
      for (Graph* r : n->regions()) graph(*r);
      if (n->has_regions() || nondeterministic(*n)) continue;
      if (Node* same = find_node(n)) {
        for (size_t i = 0; i < n->num_outputs(); ++i)
          if (n->output(i)) n->output(i)->replace_all_uses_with(same->output(i));
        g.erase(n);
        continue;
      }
      nodes_.back().emplace(n, n);
    }
    nodes_.pop_back();
    consts_.pop_back();
  }

 private:
  Node* find_node(Node* n) {
    for (auto it = nodes_.rbegin(); it != nodes_.rend(); ++it) {
      auto f = it->find(n);
      if (f != it->end()) return f->second;
    }
    return nullptr;
  }
  Value* find_const(Value* v) {
    for (auto it = consts_.rbegin(); it != consts_.rend(); ++it) {
      auto f = it->find(v);
      if (f != it->end()) return f->second;
    }
    return nullptr;
  }

  std::vector<std::unordered_map<Node*, Node*, NodeHash, NodeEq>> nodes_;
  std::vector<std::unordered_map<Value*, Value*, TensorHash, TensorEq>> consts_;
};

}  // namespace

bool nondeterministic(const Node& n) {
  static constexpr std::string_view kOps[] = {
      "RandomNormal", "RandomUniform", "RandomNormalLike", "RandomUniformLike",
      "Multinomial",  "Bernoulli",     "Dropout"};
  if (!n.domain().empty()) return false;
  return std::find(std::begin(kOps), std::end(kOps), n.op_type()) != std::end(kOps);
}

Status cse(ir::Graph& graph, const PassOptions&) {
  Cse c;
  c.graph(graph);
  return Status::ok();
}

}  // namespace onnxify::passes
