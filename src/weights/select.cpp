// Choosing the tensors to bind: a --key path through the checkpoint, or the one obvious dict of
// tensors; then flattening what was chosen into qualified names ("layer1.0.conv1.weight"),
// the way nn.Module.state_dict() names parameters.
//
// Walks guard against what a pickle can build: shared containers are visited once, cycles end,
// and nesting is bounded (a real checkpoint nests a few levels).
#include <fmt/core.h>

#include <unordered_set>

#include "weights/weights.h"

namespace onnxify::weights {

namespace {

constexpr int kMaxDepth = 100;
constexpr size_t kMaxListed = 8;

[[noreturn]] void fail(std::string msg) { throw Diagnostic::error(std::move(msg)); }

std::string join(const std::string& prefix, const std::string& name) {
  return prefix.empty() ? name : name.empty() ? prefix : prefix + "." + name;
}

// The (name, value) children of a container, as paths see them: dict items, list and tuple
// indices, and an opaque object's attributes (its BUILD state).
template <typename F>
void for_each_child(const Value& v, F&& f) {
  switch (v.kind()) {
    case Kind::Dict:
      for (const auto& [k, child] : v.dict().items) f(key_name(k), child);
      return;
    case Kind::List:
    case Kind::Tuple:
    case Kind::Set: {
      const auto& items = v.seq().items;
      for (size_t i = 0; i < items.size(); ++i) f(std::to_string(i), items[i]);
      return;
    }
    case Kind::Instance: {
      const Value& state = v.instance().state;
      if (state.is(Kind::Dict))
        for (const auto& [k, child] : state.dict().items) f(key_name(k), child);
      return;
    }
    default:
      return;
  }
}

bool is_container(const Value& v) {
  return v.is(Kind::Dict) || v.is(Kind::List) || v.is(Kind::Tuple) || v.is(Kind::Set) || v.is(Kind::Instance);
}

class Flattener {
 public:
  std::vector<NamedTensor> out;

  void add(const Value& v, const std::string& name, int depth) {
    if (v.is(Kind::Tensor)) {
      out.push_back({name, v.tensor().tensor});
      return;
    }
    if (!is_container(v) || !seen_.insert(v.pointer()).second) return;
    if (depth > kMaxDepth) fail(fmt::format("'{}' is nested more than {} levels deep", name, kMaxDepth));
    for_each_child(v, [&](const std::string& k, const Value& child) { add(child, join(name, k), depth + 1); });
  }

 private:
  std::unordered_set<const void*> seen_;
};

// Dicts that hold tensors directly, outermost first, in checkpoint order.
class CandidateFinder {
 public:
  std::vector<std::pair<std::string, Value>> candidates;
  bool any_tensor = false;

  void visit(const Value& v, const std::string& path, int depth) {
    if (v.is(Kind::Tensor)) {
      any_tensor = true;
      return;
    }
    if (!is_container(v) || depth > kMaxDepth || !seen_.insert(v.pointer()).second) return;
    if (v.is(Kind::Dict)) {
      for (const auto& item : v.dict().items) {
        if (item.second.is(Kind::Tensor)) {
          any_tensor = true;
          candidates.emplace_back(path, v);
          return;
        }
      }
    }
    for_each_child(v, [&](const std::string& k, const Value& child) { visit(child, join(path, k), depth + 1); });
  }

 private:
  std::unordered_set<const void*> seen_;
};

std::string quoted_list(const std::vector<std::string>& names, size_t total) {
  std::string s;
  for (size_t i = 0; i < names.size() && i < kMaxListed; ++i) s += fmt::format("{}'{}'", i ? ", " : "", names[i]);
  if (total > kMaxListed) s += fmt::format(" and {} more", total - kMaxListed);
  return s;
}

std::vector<std::string> split(const std::string& key) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t dot; (dot = key.find('.', start)) != std::string::npos; start = dot + 1)
    parts.push_back(key.substr(start, dot - start));
  parts.push_back(key.substr(start));
  return parts;
}

// What a --key selects: usually one value; for a key that is a prefix of qualified names in a flat
// dict ("encoder" in {"encoder.w": …, "decoder.w": …}), the matching entries, prefix removed.
struct Selection {
  std::vector<std::pair<std::string, Value>> parts;
};

Selection walk(const Value& root, const std::string& key) {
  std::vector<std::string> comps = split(key);
  Value cur = root;
  std::string walked;
  for (size_t i = 0; i < comps.size();) {
    // Longest match first: a dict key may itself contain dots ("model.ema" as one key).
    size_t next = i;
    for (size_t j = comps.size(); j > i && next == i; --j) {
      std::string want = comps[i];
      for (size_t k = i + 1; k < j; ++k) want += "." + comps[k];
      for_each_child(cur, [&](const std::string& name, const Value& child) {
        if (next == i && name == want) {
          cur = child;
          walked = join(walked, want);
          next = j;
        }
      });
    }
    if (next != i) {
      i = next;
      continue;
    }
    // The prefix rule, for flat dicts of qualified names.
    std::string rest = comps[i];
    for (size_t k = i + 1; k < comps.size(); ++k) rest += "." + comps[k];
    if (cur.is(Kind::Dict)) {
      Selection sel;
      std::string prefix = rest + ".";
      for (const auto& [k, child] : cur.dict().items) {
        std::string name = key_name(k);
        if (name.compare(0, prefix.size(), prefix) == 0) sel.parts.emplace_back(name.substr(prefix.size()), child);
      }
      if (!sel.parts.empty()) return sel;
    }
    std::string where = walked.empty() ? "the checkpoint" : fmt::format("'{}'", walked);
    if (!is_container(cur))
      fail(fmt::format("--key '{}': {} is {}, which has no key '{}'", key, where,
                       cur.is(Kind::Tensor) ? "a tensor" : "a " + cur.type_name(), comps[i]));
    std::vector<std::string> names;
    for_each_child(cur, [&](const std::string& name, const Value&) { names.push_back(name); });
    std::string msg = fmt::format("--key '{}': {} has no key '{}'", key, where, comps[i]);
    std::string guess = closest_spelling(comps[i], names);
    if (!guess.empty()) msg += fmt::format(" (did you mean '{}'?)", guess);
    msg += names.empty() ? "; it is empty" : fmt::format("; its keys are {}", quoted_list(names, names.size()));
    fail(msg);
  }
  return Selection{{{cur.is(Kind::Tensor) ? comps.back() : "", cur}}};
}

}  // namespace

StateDict Checkpoint::select(const std::string& key) const {
  StateDict sd;
  sd.key = key;
  try {
    Selection sel;
    if (!key.empty()) {
      sel = walk(root_, key);
    } else {
      CandidateFinder finder;
      finder.visit(root_, "", 0);
      if (!finder.any_tensor) fail("the checkpoint holds no tensors");
      if (finder.candidates.size() == 1) {
        sd.key = finder.candidates[0].first;
        sel.parts.emplace_back("", finder.candidates[0].second);
      } else if (finder.candidates.empty()) {
        // Tensors, but no dict holds them directly (a list of tensors, a bare tensor): take all.
        sel.parts.emplace_back(root_.is(Kind::Tensor) ? "tensor" : "", root_);
      } else {
        std::vector<std::string> names;
        for (const auto& c : finder.candidates) names.push_back(c.first.empty() ? "(the top level)" : c.first);
        fail(fmt::format("found {} dicts of tensors: {}; choose one with --key", names.size(),
                         quoted_list(names, names.size())));
      }
    }
    Flattener flat;
    for (const auto& [name, value] : sel.parts) flat.add(value, name, 0);
    sd.tensors = std::move(flat.out);
  } catch (Diagnostic& d) {
    d.with_file(path_);
    throw;
  }
  for (size_t i = 0; i < sd.tensors.size(); ++i) sd.index_.emplace(sd.tensors[i].name, i);
  return sd;
}

}  // namespace onnxify::weights
