#include "ir/graph.h"

#include <fmt/core.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <functional>
#include <stdexcept>

namespace onnxify::ir {

// ---------------------------------------------------------------------------------------------
// Value

Value::Value(Def def, Graph* graph, Node* producer, uint32_t index, Type type, std::string name)
    : type_(std::move(type)), def_(def), producer_(producer), graph_(graph), index_(index) {
  set_name(std::move(name));
}

void Value::set_name(std::string name) {
  bool digits =
      !name.empty() && std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; });
  name_ = digits ? std::string() : std::move(name);
}

void Value::set_initializer(Tensor t) {
  if (def_ != Def::Initializer)
    throw std::logic_error("set_initializer on a value that is not an initializer");
  type_ = t.type();
  init_ = std::make_unique<Tensor>(std::move(t));
}

void Value::remove_use(Use u) {
  auto it = std::find(uses_.begin(), uses_.end(), u);
  if (it != uses_.end()) uses_.erase(it);
}

void Value::replace_all_uses_with(Value* other) {
  if (other == this) return;
  std::vector<Use> uses = std::move(uses_);
  uses_.clear();
  for (const Use& u : uses) {
    if (u.user) {
      u.user->inputs_[u.index] = other;
    } else {
      u.graph->outputs_[u.index] = other;
    }
    if (other) other->add_use(u);
  }
}

// ---------------------------------------------------------------------------------------------
// Attribute

namespace {
struct AttrKindInfo {
  std::string_view name;
  int onnx;
};
constexpr AttrKindInfo kAttrKinds[] = {
#define X(e, name, onnx) {name, onnx},
    ONNXIFY_ATTR_KINDS(X)
#undef X
};
}  // namespace

std::string_view to_string(AttrKind k) { return kAttrKinds[static_cast<size_t>(k)].name; }
int onnx_attr_type(AttrKind k) { return kAttrKinds[static_cast<size_t>(k)].onnx; }
std::optional<AttrKind> attr_kind_from_onnx(int onnx_type) {
  for (size_t i = 0; i < std::size(kAttrKinds); ++i)
    if (kAttrKinds[i].onnx == onnx_type) return static_cast<AttrKind>(i);
  return std::nullopt;
}
std::optional<AttrKind> attr_kind_from_name(std::string_view name) {
  for (size_t i = 0; i < std::size(kAttrKinds); ++i)
    if (kAttrKinds[i].name == name) return static_cast<AttrKind>(i);
  return std::nullopt;
}

Attribute::Attribute(float v) : v_(v) {}
Attribute::Attribute(int64_t v) : v_(v) {}
Attribute::Attribute(std::string v) : v_(std::move(v)) {}
Attribute::Attribute(const char* v) : v_(std::string(v)) {}
Attribute::Attribute(Tensor v) : v_(std::move(v)) {}
Attribute::Attribute(GraphPtr v) : v_(std::move(v)) {}
Attribute::Attribute(std::vector<float> v) : v_(std::move(v)) {}
Attribute::Attribute(std::vector<int64_t> v) : v_(std::move(v)) {}
Attribute::Attribute(std::vector<std::string> v) : v_(std::move(v)) {}
Attribute::Attribute(std::vector<Tensor> v) : v_(std::move(v)) {}
Attribute::Attribute(GraphList v) : v_(std::move(v)) {}
Attribute::Attribute(Attribute&&) noexcept = default;
Attribute& Attribute::operator=(Attribute&&) noexcept = default;
Attribute::~Attribute() = default;

bool Attribute::equals(const Attribute& o) const {
  if (kind() != o.kind()) return false;
  switch (kind()) {
    case AttrKind::Float: {  // bitwise, so nan == nan and 0.0 != -0.0
      float a = f(), b = o.f();
      return std::memcmp(&a, &b, sizeof a) == 0;
    }
    case AttrKind::Int:
      return i() == o.i();
    case AttrKind::String:
      return s() == o.s();
    case AttrKind::Tensor:
      return t().equals(o.t());
    case AttrKind::Floats:
      return floats().size() == o.floats().size() &&
             std::memcmp(floats().data(), o.floats().data(), floats().size() * sizeof(float)) == 0;
    case AttrKind::Ints:
      return ints() == o.ints();
    case AttrKind::Strings:
      return strings() == o.strings();
    case AttrKind::Tensors: {
      if (tensors().size() != o.tensors().size()) return false;
      for (size_t k = 0; k < tensors().size(); ++k)
        if (!tensors()[k].equals(o.tensors()[k])) return false;
      return true;
    }
    case AttrKind::Graph:
    case AttrKind::Graphs:
      return this == &o;
  }
  return false;
}

size_t Attribute::hash() const {
  size_t h = static_cast<size_t>(kind()) * 0x9e3779b97f4a7c15ULL;
  auto mix = [&h](size_t v) { h = (h ^ v) * 1099511628211ULL; };
  switch (kind()) {
    case AttrKind::Float: {
      float a = f();
      uint32_t bits;
      std::memcpy(&bits, &a, 4);
      mix(bits);
      break;
    }
    case AttrKind::Int:
      mix(std::hash<int64_t>()(i()));
      break;
    case AttrKind::String:
      mix(std::hash<std::string>()(s()));
      break;
    case AttrKind::Tensor:
      mix(t().content_hash());
      break;
    case AttrKind::Floats:
      for (float x : floats()) {
        uint32_t bits;
        std::memcpy(&bits, &x, 4);
        mix(bits);
      }
      break;
    case AttrKind::Ints:
      for (int64_t x : ints()) mix(std::hash<int64_t>()(x));
      break;
    case AttrKind::Strings:
      for (const auto& x : strings()) mix(std::hash<std::string>()(x));
      break;
    case AttrKind::Tensors:
      for (const auto& x : tensors()) mix(x.content_hash());
      break;
    case AttrKind::Graph:
    case AttrKind::Graphs:
      mix(reinterpret_cast<uintptr_t>(this));
      break;
  }
  return h;
}

// ---------------------------------------------------------------------------------------------
// Node

Node::~Node() = default;

std::string Node::qualified_op() const { return domain_.empty() ? op_type_ : domain_ + "::" + op_type_; }

void Node::set_input(size_t i, Value* v) {
  if (i >= inputs_.size()) throw std::out_of_range("Node::set_input");
  if (inputs_[i]) inputs_[i]->remove_use(Use{this, nullptr, static_cast<uint32_t>(i)});
  inputs_[i] = v;
  if (v) v->add_use(Use{this, nullptr, static_cast<uint32_t>(i)});
}

void Node::add_input(Value* v) {
  inputs_.push_back(v);
  if (v) v->add_use(Use{this, nullptr, static_cast<uint32_t>(inputs_.size() - 1)});
}

void Node::remove_input(size_t i) {
  if (i >= inputs_.size()) throw std::out_of_range("Node::remove_input");
  for (size_t k = i; k < inputs_.size(); ++k)
    if (inputs_[k]) inputs_[k]->remove_use(Use{this, nullptr, static_cast<uint32_t>(k)});
  inputs_.erase(inputs_.begin() + static_cast<ptrdiff_t>(i));
  for (size_t k = i; k < inputs_.size(); ++k)
    if (inputs_[k]) inputs_[k]->add_use(Use{this, nullptr, static_cast<uint32_t>(k)});
}

void Node::erase_output(size_t i) {
  if (outputs_[i] && outputs_[i]->has_uses()) throw std::logic_error("erase_output: the output is still used");
  outputs_.erase(outputs_.begin() + static_cast<std::ptrdiff_t>(i));
  for (size_t k = i; k < outputs_.size(); ++k)
    if (outputs_[k]) outputs_[k]->index_ = static_cast<uint32_t>(k);
}

Value* Node::add_output(Type type, std::string name) {
  outputs_.push_back(std::unique_ptr<Value>(new Value(Value::Def::NodeOutput, graph_, this,
                                                      static_cast<uint32_t>(outputs_.size()), std::move(type),
                                                      std::move(name))));
  return outputs_.back().get();
}

const Attribute* Node::attr(std::string_view name) const {
  for (const auto& [k, v] : attrs_)
    if (k == name) return &v;
  return nullptr;
}

void Node::set_attr(std::string name, Attribute value) {
  if (value.kind() == AttrKind::Graph) {
    value.g().parent_ = this;
  } else if (value.kind() == AttrKind::Graphs) {
    for (const auto& g : value.graphs()) g->parent_ = this;
  }
  for (auto& [k, v] : attrs_) {
    if (k == name) {
      v = std::move(value);  // the old value's regions detach in ~Graph
      return;
    }
  }
  attrs_.emplace_back(std::move(name), std::move(value));
}

bool Node::remove_attr(std::string_view name) {
  for (auto it = attrs_.begin(); it != attrs_.end(); ++it) {
    if (it->first == name) {
      attrs_.erase(it);
      return true;
    }
  }
  return false;
}

int64_t Node::attr_int(std::string_view name, int64_t dflt) const {
  const Attribute* a = attr(name);
  return a && a->kind() == AttrKind::Int ? a->i() : dflt;
}
float Node::attr_float(std::string_view name, float dflt) const {
  const Attribute* a = attr(name);
  return a && a->kind() == AttrKind::Float ? a->f() : dflt;
}
std::string Node::attr_string(std::string_view name, std::string dflt) const {
  const Attribute* a = attr(name);
  return a && a->kind() == AttrKind::String ? a->s() : dflt;
}
std::vector<int64_t> Node::attr_ints(std::string_view name, std::vector<int64_t> dflt) const {
  const Attribute* a = attr(name);
  return a && a->kind() == AttrKind::Ints ? a->ints() : dflt;
}

std::vector<Graph*> Node::regions() const {
  std::vector<Graph*> out;
  for (const auto& [k, v] : attrs_) {
    if (v.kind() == AttrKind::Graph) out.push_back(&v.g());
    if (v.kind() == AttrKind::Graphs)
      for (const auto& g : v.graphs()) out.push_back(g.get());
  }
  return out;
}

bool Node::has_regions() const {
  return std::any_of(attrs_.begin(), attrs_.end(), [](const auto& kv) {
    return kv.second.kind() == AttrKind::Graph ||
           (kv.second.kind() == AttrKind::Graphs && !kv.second.graphs().empty());
  });
}

// ---------------------------------------------------------------------------------------------
// Graph

namespace {
// > 0 while a whole graph tree is being destroyed: nested graphs then skip use bookkeeping.
thread_local int teardown_depth = 0;
}  // namespace

Graph::Graph(std::string name) : name_(std::move(name)) {
  static std::atomic<uint64_t> next{1};
  serial_ = next.fetch_add(1, std::memory_order_relaxed);
}

Graph::~Graph() {
  // A graph destroyed on its own (its node erased, its attribute replaced, a detached clone dropped)
  // must drop the uses it holds on outer values; a region destroyed with its whole tree need not.
  if (teardown_depth == 0) detach_outer_uses();
  ++teardown_depth;
  for (Node* n = last_; n;) {
    Node* p = n->prev_;
    delete n;
    n = p;
  }
  --teardown_depth;
}

Graph* Graph::parent_graph() const { return parent_ ? parent_->graph() : nullptr; }

bool Graph::encloses(const Graph* g) const {
  for (; g; g = g->parent_graph())
    if (g == this) return true;
  return false;
}

void Graph::detach_outer_uses() {
  std::function<void(Graph&)> walk = [&](Graph& g) {
    for (size_t i = 0; i < g.outputs_.size(); ++i) {
      Value* v = g.outputs_[i];
      if (v && !encloses(v->graph())) v->remove_use(Use{nullptr, &g, static_cast<uint32_t>(i)});
    }
    for (Node* n : g.nodes()) {
      for (size_t i = 0; i < n->inputs_.size(); ++i) {
        Value* v = n->inputs_[i];
        if (v && !encloses(v->graph())) v->remove_use(Use{n, nullptr, static_cast<uint32_t>(i)});
      }
      for (Graph* r : n->regions()) walk(*r);
    }
  };
  walk(*this);
}

Value* Graph::add_input(Type type, std::string name) {
  inputs_.push_back(std::unique_ptr<Value>(new Value(Value::Def::GraphInput, this, nullptr,
                                                     static_cast<uint32_t>(inputs_.size()), std::move(type),
                                                     std::move(name))));
  return inputs_.back().get();
}

void Graph::erase_input(size_t i) {
  if (i >= inputs_.size()) throw std::out_of_range("Graph::erase_input");
  if (inputs_[i]->has_uses()) throw std::logic_error("erasing a graph input that is still used");
  inputs_.erase(inputs_.begin() + static_cast<ptrdiff_t>(i));
  for (size_t k = i; k < inputs_.size(); ++k) inputs_[k]->index_ = static_cast<uint32_t>(k);
}

Value* Graph::add_initializer(Tensor data, std::string name) {
  Type t = data.type();
  initializers_.push_back(std::unique_ptr<Value>(new Value(Value::Def::Initializer, this, nullptr,
                                                           static_cast<uint32_t>(initializers_.size()),
                                                           std::move(t), std::move(name))));
  initializers_.back()->init_ = std::make_unique<Tensor>(std::move(data));
  return initializers_.back().get();
}

void Graph::erase_initializer(Value* v) {
  if (v->graph() != this || !v->is_initializer()) throw std::logic_error("erase_initializer: not ours");
  if (v->has_uses()) throw std::logic_error("erasing an initializer that is still used");
  size_t i = v->index();
  initializers_.erase(initializers_.begin() + static_cast<ptrdiff_t>(i));
  for (size_t k = i; k < initializers_.size(); ++k) initializers_[k]->index_ = static_cast<uint32_t>(k);
}

void Graph::adopt_initializer(Value* v) {
  Graph* from = v->graph();
  if (!v->is_initializer() || from == this || !encloses(from))
    throw std::logic_error("adopt_initializer: not an initializer of a nested graph");
  size_t i = v->index();
  std::unique_ptr<Value> owned = std::move(from->initializers_[i]);
  from->initializers_.erase(from->initializers_.begin() + static_cast<ptrdiff_t>(i));
  for (size_t k = i; k < from->initializers_.size(); ++k)
    from->initializers_[k]->index_ = static_cast<uint32_t>(k);
  owned->graph_ = this;
  owned->index_ = static_cast<uint32_t>(initializers_.size());
  initializers_.push_back(std::move(owned));
}

void Graph::add_output(Value* v) {
  outputs_.push_back(v);
  if (v) v->add_use(Use{nullptr, this, static_cast<uint32_t>(outputs_.size() - 1)});
}

void Graph::set_output(size_t i, Value* v) {
  if (i >= outputs_.size()) throw std::out_of_range("Graph::set_output");
  if (outputs_[i]) outputs_[i]->remove_use(Use{nullptr, this, static_cast<uint32_t>(i)});
  outputs_[i] = v;
  if (v) v->add_use(Use{nullptr, this, static_cast<uint32_t>(i)});
}

void Graph::erase_output(size_t i) {
  if (i >= outputs_.size()) throw std::out_of_range("Graph::erase_output");
  for (size_t k = i; k < outputs_.size(); ++k)
    if (outputs_[k]) outputs_[k]->remove_use(Use{nullptr, this, static_cast<uint32_t>(k)});
  outputs_.erase(outputs_.begin() + static_cast<ptrdiff_t>(i));
  for (size_t k = i; k < outputs_.size(); ++k)
    if (outputs_[k]) outputs_[k]->add_use(Use{nullptr, this, static_cast<uint32_t>(k)});
}

void Graph::link(Node* n, Node* before) {
  if (before && before->graph_ != this) throw std::logic_error("insertion point is in another graph");
  n->graph_ = this;
  n->next_ = before;
  n->prev_ = before ? before->prev_ : last_;
  if (n->prev_)
    n->prev_->next_ = n;
  else
    first_ = n;
  if (before)
    before->prev_ = n;
  else
    last_ = n;
  ++size_;
}

void Graph::unlink(Node* n) {
  if (n->prev_)
    n->prev_->next_ = n->next_;
  else
    first_ = n->next_;
  if (n->next_)
    n->next_->prev_ = n->prev_;
  else
    last_ = n->prev_;
  n->prev_ = n->next_ = nullptr;
  --size_;
}

Node* Graph::create(std::string domain, std::string op_type, const std::vector<Value*>& inputs,
                    size_t num_outputs, Node* before) {
  Node* n = new Node(this, std::move(domain), std::move(op_type));
  link(n, before);
  for (Value* v : inputs) n->add_input(v);
  for (size_t i = 0; i < num_outputs; ++i) n->add_output();
  return n;
}

void Graph::erase(Node* n) {
  if (n->graph_ != this) throw std::logic_error("Graph::erase: node belongs to another graph");
  for (const auto& out : n->outputs_)
    if (out && out->has_uses())
      throw std::logic_error(fmt::format("erasing {} whose result is still used", n->qualified_op()));
  for (size_t i = 0; i < n->inputs_.size(); ++i)
    if (n->inputs_[i]) n->inputs_[i]->remove_use(Use{n, nullptr, static_cast<uint32_t>(i)});
  unlink(n);
  delete n;  // regions detach their outer uses in ~Graph
}

void Graph::move_before(Node* n, Node* before) {
  if (n->graph_ != this) throw std::logic_error("Graph::move_before: node belongs to another graph");
  if (n == before) return;
  unlink(n);
  link(n, before);
}

Node* Graph::clone_node(const Node& src, ValueMap& map, Node* before) {
  auto mapped = [&map](Value* v) -> Value* {
    if (!v) return nullptr;
    auto it = map.find(v);
    return it != map.end() ? it->second : v;
  };
  std::vector<Value*> ins;
  for (Value* v : src.inputs_) ins.push_back(mapped(v));
  Node* n = create(src.domain_, src.op_type_, ins, 0, before);
  for (const auto& out : src.outputs_) {
    if (!out) {
      n->add_absent_output();
      continue;
    }
    map[out.get()] = n->add_output(out->type(), out->name());
  }
  for (const auto& [k, a] : src.attrs_) {
    switch (a.kind()) {
      case AttrKind::Float:
        n->set_attr(k, a.f());
        break;
      case AttrKind::Int:
        n->set_attr(k, a.i());
        break;
      case AttrKind::String:
        n->set_attr(k, a.s());
        break;
      case AttrKind::Tensor:
        n->set_attr(k, a.t());
        break;
      case AttrKind::Floats:
        n->set_attr(k, a.floats());
        break;
      case AttrKind::Ints:
        n->set_attr(k, a.ints());
        break;
      case AttrKind::Strings:
        n->set_attr(k, a.strings());
        break;
      case AttrKind::Tensors:
        n->set_attr(k, a.tensors());
        break;
      case AttrKind::Graph:
        n->set_attr(k, a.g().clone(map));
        break;
      case AttrKind::Graphs: {
        Attribute::GraphList gs;
        for (const auto& g : a.graphs()) gs.push_back(g->clone(map));
        n->set_attr(k, std::move(gs));
        break;
      }
    }
  }
  n->loc_ = src.loc_;
  n->module_path_ = src.module_path_;
  return n;
}

std::unique_ptr<Graph> Graph::clone(ValueMap& map) const {
  auto g = std::make_unique<Graph>(name_);
  for (const auto& v : inputs_) map[v.get()] = g->add_input(v->type(), v->name());
  for (const auto& v : initializers_) map[v.get()] = g->add_initializer(*v->initializer(), v->name());
  for (Node* n : nodes()) g->clone_node(*n, map);
  for (Value* v : outputs_) {
    auto it = map.find(v);
    g->add_output(it != map.end() ? it->second : v);
  }
  return g;
}

// ---------------------------------------------------------------------------------------------
// NameTable

NameTable::NameTable(const Graph& main) { assign(main); }

void NameTable::take(const Value* v) {
  if (!v || names_.count(v)) return;
  std::string name;
  if (!v->name().empty()) {
    name = v->name();
    if (taken_.count(name)) {
      int& next = taken_[v->name()];
      do {
        name = fmt::format("{}_{}", v->name(), ++next);
      } while (taken_.count(name));
    }
  } else {
    do {
      name = fmt::format("{}", counter_++);
    } while (taken_.count(name));
  }
  taken_.emplace(name, 0);
  names_.emplace(v, std::move(name));
}

void NameTable::assign(const Graph& g) {
  for (size_t i = 0; i < g.num_inputs(); ++i) take(g.input(i));
  for (size_t i = 0; i < g.num_initializers(); ++i) take(g.initializer(i));
  for (Node* n : g.nodes()) {
    for (size_t i = 0; i < n->num_outputs(); ++i) take(n->output(i));
    for (Graph* r : n->regions()) assign(*r);
  }
}

std::string NameTable::fresh(const std::string& hint) {
  std::string name = hint;
  if (name.empty() || taken_.count(name)) {
    int& next = taken_[hint];
    do {
      name = fmt::format("{}_{}", hint, ++next);
    } while (taken_.count(name));
  }
  taken_.emplace(name, 0);
  return name;
}

const std::string& NameTable::operator()(const Value* v) const {
  static const std::string missing = "<unnamed>";
  auto it = names_.find(v);
  return it != names_.end() ? it->second : missing;
}

}  // namespace onnxify::ir
