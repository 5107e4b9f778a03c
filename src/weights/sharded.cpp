// Sharded checkpoints as Hugging Face writes them: an index file (model.safetensors.index.json,
// pytorch_model.bin.index.json) whose "weight_map" names, for every tensor, the shard file (in the
// index's folder) that holds it. The shards are opened like any checkpoint (mapped, zero-copy) and
// their tensors form one state_dict, in the order of the shards' first mention in the map.
#include <fmt/core.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "weights/weights.h"

namespace onnxify::weights {

bool is_shard_index(const std::string& path) {
  static const std::string kSuffix = ".index.json";
  return path.size() > kSuffix.size() && path.compare(path.size() - kSuffix.size(), kSuffix.size(), kSuffix) == 0;
}

StateDict open_sharded(const std::string& index_path, const std::string& key) {
  auto fail = [&](const std::string& why) { return Diagnostic::error(why).with_file(index_path); };
  std::ifstream in(index_path, std::ios::binary);
  if (!in) throw fail(fmt::format("cannot read '{}'", index_path));
  std::stringstream text;
  text << in.rdbuf();
  nlohmann::json j = nlohmann::json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) throw fail("the shard index is not a JSON object");
  auto map = j.find("weight_map");
  if (map == j.end() || !map->is_object())
    throw fail("the shard index has no \"weight_map\" object (tensor name -> shard file)");
  size_t slash = index_path.rfind('/');
  std::string dir = slash == std::string::npos ? "" : index_path.substr(0, slash + 1);
  std::vector<std::string> shards;  // in order of first mention
  std::map<std::string, std::string> want;  // tensor -> shard
  for (auto it = map->begin(); it != map->end(); ++it) {
    if (!it.value().is_string()) throw fail(fmt::format("weight_map['{}'] is not a file name", it.key()));
    std::string f = it.value().get<std::string>();
    if (f.empty() || f.find('/') != std::string::npos || f == "." || f == "..")
      throw fail(fmt::format("weight_map['{}'] = '{}': a shard must be a file next to the index", it.key(), f));
    if (std::find(shards.begin(), shards.end(), f) == shards.end()) shards.push_back(f);
    want[it.key()] = f;
  }
  StateDict out;
  out.key = key;
  std::set<std::string> seen;
  for (const std::string& f : shards) {
    Checkpoint ck = Checkpoint::open(dir + f);  // its tensors keep the mapping alive (Bytes)
    StateDict sd = ck.select(key);
    for (NamedTensor& nt : sd.tensors) {
      auto w = want.find(nt.name);
      if (w == want.end() || w->second != f) continue;  // the map says another shard holds it
      if (!seen.insert(nt.name).second) continue;
      out.tensors.push_back(std::move(nt));
    }
  }
  std::vector<std::string> absent;
  for (const auto& [name, f] : want)
    if (!seen.count(name)) absent.push_back(fmt::format("{} (in {})", name, f));
  if (!absent.empty()) {
    std::string list;
    for (size_t i = 0; i < absent.size() && i < 6; ++i) list += (i ? ", " : "") + absent[i];
    if (absent.size() > 6) list += fmt::format(", ... and {} more", absent.size() - 6);
    throw fail(fmt::format("{} tensor{} of the weight_map not found in {} shard: {}", absent.size(),
                           absent.size() == 1 ? "" : "s", absent.size() == 1 ? "its" : "their", list));
  }
  out.reindex();
  return out;
}

}  // namespace onnxify::weights
