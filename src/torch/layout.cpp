// --layout: the file's images in the layout the user's runtime prefers, whatever the model's code
// takes. A Keras or TensorFlow model takes channels-last images (N, H, W, C), a PyTorch model
// channels-first (N, C, H, W); with --layout the other way, each 4-d and 5-d graph input and output
// gets a Transpose between the file's layout and the model's. The passes then move those Transposes
// into the graph, where they cancel against the ones the model's own code makes around its
// convolutions (Keras on torch transposes around every Conv) or are folded into weights, so a
// channels-last Keras model becomes a channels-first file without Transposes inside.
#include <fmt/core.h>

#include "passes/match.h"
#include "torch/driver.h"

namespace onnxify::torch {

namespace {

using eval::Value;

// Whether the model is written for a channels-last framework: a Keras layer (any class in its MRO
// defined in keras), or a model evaluated on onnxify's tensorflow module.
bool model_is_channels_last(Session& s) {
  eval::Interp& I = *s.I;
  if (s.I->loader().frameworks.count("tensorflow")) return true;
  Value mro = eval::getattr(I, Value::borrow(I.type_of(s.model)), I.intern("__mro__"));
  bool keras = false;
  eval::for_each(I, mro, [&](const Value& cls) {
    Value mod = eval::getattr_opt(I, cls, I.intern("__module__"));
    if (mod && eval::is_str(mod)) {
      const std::string& m = eval::as_str(mod)->s;
      keras = keras || m == "keras" || m.rfind("keras.", 0) == 0;
    }
    return !keras;
  });
  return keras;
}

// The permutation that takes a tensor of rank `rank` from channels-last to channels-first
// ([0, 3, 1, 2] for rank 4), or its inverse.
std::vector<int64_t> to_channels_first(size_t rank) {
  std::vector<int64_t> p{0, static_cast<int64_t>(rank) - 1};
  for (size_t i = 1; i + 1 < rank; ++i) p.push_back(static_cast<int64_t>(i));
  return p;
}
bool is_image(const ir::Value* v) {
  const ir::Type& t = v->type();
  return t.kind() == ir::Type::Kind::Tensor && t.has_rank() && (t.rank() == 4 || t.rank() == 5);
}

}  // namespace

void apply_layout(Session& s, ir::Graph& g, const std::string& layout) {
  if (layout.empty() || layout == "model") return;
  bool model_last;
  try {
    model_last = model_is_channels_last(s);
  } catch (eval::PyException& e) {
    throw s.failure(python_error(*s.I, e.exc));
  }
  const bool file_last = layout == "channels-last";
  if (file_last == model_last) return;
  // file -> model for inputs, model -> file for outputs.
  auto in_perm = [&](size_t rank) {
    return model_last ? passes::inverse_perm(to_channels_first(rank)) : to_channels_first(rank);
  };
  auto out_perm = [&](size_t rank) { return passes::inverse_perm(in_perm(rank)); };

  ir::Node* first = g.first();
  for (size_t i = 0; i < g.num_inputs(); ++i) {
    ir::Value* x = g.input(i);
    if (!is_image(x)) continue;
    ir::Type model_type = x->type();
    std::vector<int64_t> perm = in_perm(model_type.rank());
    ir::Node* t = g.create("", "Transpose", {x}, 1, first);
    t->set_attr("perm", perm);
    t->output(0)->set_type(model_type);
    x->replace_all_uses_with(t->output(0));
    t->set_input(0, x);
    x->set_type(passes::transposed_type(model_type, passes::inverse_perm(perm)));
  }
  for (size_t i = 0; i < g.num_outputs(); ++i) {
    ir::Value* y = g.outputs()[i];
    if (!is_image(y)) continue;
    std::vector<int64_t> perm = out_perm(y->type().rank());
    ir::Node* t = g.create("", "Transpose", {y}, 1);
    t->set_attr("perm", perm);
    t->output(0)->set_type(passes::transposed_type(y->type(), perm));
    std::string name = y->name();
    y->set_name(name + "_" + (model_last ? "channels_last" : "channels_first"));
    t->output(0)->set_name(name);
    g.set_output(i, t->output(0));
  }
}

}  // namespace onnxify::torch
