// Choosing the tensors to bind: a --key path through the checkpoint, or the one obvious dict of
// tensors; then flattening what was chosen into qualified names ("layer1.0.conv1.weight"),
// the way nn.Module.state_dict() names parameters.
//
// Walks guard against what a pickle can build: shared containers are visited once, cycles end,
// and nesting is bounded (a real checkpoint nests a few levels).
#include <fmt/core.h>

#include <algorithm>
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
    for_each_child(v,
                   [&](const std::string& k, const Value& child) { add(child, join(name, k), depth + 1); });
  }

 private:
  std::unordered_set<const void*> seen_;
};

// Every dict that holds tensors directly (a state_dict, an optimizer's per-parameter state, a
// checkpoint's top level with a stray `best_acc1` tensor), in checkpoint order, with how many.
struct Candidate {
  std::string path;
  Value dict;
  size_t tensors;
};

class CandidateFinder {
 public:
  std::vector<Candidate> candidates;
  bool any_tensor = false;

  void visit(const Value& v, const std::string& path, int depth) {
    if (v.is(Kind::Tensor)) {
      any_tensor = true;
      return;
    }
    if (!is_container(v) || depth > kMaxDepth || !seen_.insert(v.pointer()).second) return;
    if (v.is(Kind::Dict)) {
      size_t n = 0;
      for (const auto& item : v.dict().items) n += item.second.is(Kind::Tensor);
      if (n) candidates.push_back({path, v, n});
    }
    for_each_child(v,
                   [&](const std::string& k, const Value& child) { visit(child, join(path, k), depth + 1); });
  }

 private:
  std::unordered_set<const void*> seen_;
};

std::string quoted_list(const std::vector<std::string>& names, size_t total) {
  std::string s;
  for (size_t i = 0; i < names.size() && i < kMaxListed; ++i)
    s += fmt::format("{}'{}'", i ? ", " : "", names[i]);
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
  std::string walked, last;
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
          last = want;
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
        if (name.compare(0, prefix.size(), prefix) == 0)
          sel.parts.emplace_back(name.substr(prefix.size()), child);
      }
      if (!sel.parts.empty()) return sel;
    }
    std::string where = walked.empty() ? "the checkpoint" : fmt::format("'{}'", walked);
    if (!is_container(cur))
      fail(fmt::format("--key '{}': {} is {}, which has no key '{}'", key, where,
                       cur.is(Kind::Tensor) ? "a tensor" : "a " + cur.type_name(), comps[i]));
    std::vector<std::string> names;
    bool dotted = false;
    for_each_child(cur, [&](const std::string& name, const Value&) {
      names.push_back(name);
      dotted |= name.find('.') != std::string::npos;
    });
    // In a flat dict of qualified names the missing key is the whole rest of the path.
    std::string missing = dotted ? rest : comps[i];
    std::string msg = fmt::format("--key '{}': {} has no key '{}'", key, where, missing);
    std::string guess = closest_spelling(missing, names);
    if (!guess.empty()) msg += fmt::format(" (did you mean '{}'?)", guess);
    msg +=
        names.empty() ? "; it is empty" : fmt::format("; its keys are {}", quoted_list(names, names.size()));
    fail(msg);
  }
  return Selection{{{cur.is(Kind::Tensor) ? last : "", cur}}};
}

}  // namespace

StateDict Checkpoint::select(const std::string& key) const {
  StateDict sd;
  sd.key = key;
  sd.format = format_;
  try {
    Selection sel;
    if (key == ".") {
      sel.parts.emplace_back(root_.is(Kind::Tensor) ? "tensor" : "", root_);
    } else if (!key.empty()) {
      sel = walk(root_, key);
    } else {
      // The obvious dict: the one with the most tensors, at least twice as many as any other
      // (a model's state_dict next to an optimizer's per-parameter dicts); otherwise ask.
      CandidateFinder finder;
      finder.visit(root_, "", 0);
      if (!finder.any_tensor) fail("the checkpoint holds no tensors");
      auto& c = finder.candidates;
      std::stable_sort(c.begin(), c.end(),
                       [](const Candidate& a, const Candidate& b) { return a.tensors > b.tensors; });
      if (c.empty()) {
        // Tensors, but no dict holds them directly (a list of tensors, a bare tensor): take all.
        sel.parts.emplace_back(root_.is(Kind::Tensor) ? "tensor" : "", root_);
      } else if (c.size() == 1 || c[0].tensors >= 2 * c[1].tensors) {
        sd.key = c[0].path;
        sel.parts.emplace_back("", c[0].dict);
      } else {
        std::string list;
        for (size_t i = 0; i < c.size() && i < kMaxListed; ++i)
          list += fmt::format("{}'{}' ({} tensor{})", i ? ", " : "", c[i].path.empty() ? "." : c[i].path,
                              c[i].tensors, c[i].tensors == 1 ? "" : "s");
        if (c.size() > kMaxListed) list += fmt::format(" and {} more", c.size() - kMaxListed);
        fail(fmt::format("found {} dicts of tensors: {}; choose one with --key", c.size(), list));
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
  if (format_ == Format::Keras && root_.is(Kind::Dict))
    for (const auto& [name, v] : root_.dict().attrs) {
      if (name != "keras_legacy") continue;
      for (const Value& layer : v.seq().items) {
        const auto& pair = layer.seq().items;
        std::vector<std::string> paths;
        for (const Value& p : pair[1].seq().items) paths.push_back(p.as_str());
        sd.keras_legacy.emplace_back(pair[0].as_str(), std::move(paths));
      }
    }
  return sd;
}

}  // namespace onnxify::weights
