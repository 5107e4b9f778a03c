// dce: dead-code elimination across regions.
//
// Liveness starts at the main graph's outputs and flows to producers. A live node's regions are
// live through their outputs, and a region's nodes may make outer values live by capturing them:
// an outer value used only inside a region is a use like any other. Dead nodes are erased in
// reverse order (users before producers; a live node's regions before the nodes they capture),
// then initializers nobody uses are dropped. Graph inputs are the interface and stay. An If's
// results nobody uses are removed first, with the branch outputs computing them, so the branches
// keep only what is used (an If has no side effects; it needs one result to stay).
#include <unordered_set>
#include <vector>

#include "passes/passes.h"

namespace onnxify::passes {

namespace {

using ir::Graph;
using ir::Node;
using ir::Value;

class Dce {
 public:
  void mark_value(const Value* v) {
    if (v && v->producer() && live_.insert(v->producer()).second) work_.push_back(v->producer());
  }

  void propagate() {
    while (!work_.empty()) {
      const Node* n = work_.back();
      work_.pop_back();
      for (const Value* in : n->inputs()) mark_value(in);
      for (const Graph* r : n->regions())
        for (const Value* out : r->outputs()) mark_value(out);
    }
  }

  void sweep(Graph& g) {
    for (Node* n = g.last(); n;) {
      Node* prev = n->prev();
      if (live_.count(n)) {
        for (Graph* r : n->regions()) sweep(*r);
      } else {
        g.erase(n);
      }
      n = prev;
    }
    for (size_t i = g.num_initializers(); i-- > 0;)
      if (!g.initializer(i)->has_uses()) g.erase_initializer(g.initializer(i));
  }

 private:
  std::unordered_set<const Node*> live_;
  std::vector<const Node*> work_;
};

}  // namespace

// Drops unused results of If nodes (at any depth), keeping at least one.
void prune_if_outputs(Graph& g) {
  for (Node* n : g.nodes()) {
    for (Graph* r : n->regions()) prune_if_outputs(*r);
    if (!n->is("If") || n->regions().size() != 2) continue;
    for (size_t i = n->num_outputs(); i-- > 0 && n->num_outputs() > 1;) {
      if (n->output(i) && n->output(i)->has_uses()) continue;
      bool ok = true;
      for (Graph* r : n->regions()) ok = ok && r->num_outputs() == n->num_outputs();
      if (!ok) break;
      for (Graph* r : n->regions()) r->erase_output(i);
      n->erase_output(i);
    }
  }
}

Status dce(ir::Graph& graph, const PassOptions&) {
  prune_if_outputs(graph);
  Dce d;
  for (const Value* out : graph.outputs()) d.mark_value(out);
  d.propagate();
  d.sweep(graph);
  return Status::ok();
}

}  // namespace onnxify::passes
