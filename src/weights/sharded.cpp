// A state_dict as Hugging Face ships it: one file, a folder, or an index that spreads the tensors
// over shards.
//   model.safetensors.index.json / pytorch_model.bin.index.json:
//     {"metadata": {...}, "weight_map": {"<tensor name>": "<shard file name>", ...}}
// Each shard is an ordinary checkpoint (safetensors or torch.save), opened and mapped like a single
// file, so the merged state_dict is still zero-copy views: peak memory does not grow with the number
// or size of the shards. Shard names are resolved next to the index and must stay inside its folder
// (an index is data; it does not get to name arbitrary files).
#include <fmt/core.h>
#include <sys/stat.h>

#include <nlohmann/json.hpp>
#include <set>

#include "weights/weights.h"

namespace onnxify::weights {

namespace {

bool ends_with(const std::string& s, std::string_view tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

bool is_directory(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool exists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

std::string folder_of(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash == 0 ? 1 : slash);
}

// The files a Hugging Face model folder holds, in the order transformers prefers them.
constexpr const char* kFolderFiles[] = {"model.safetensors.index.json", "model.safetensors",
                                        "pytorch_model.bin.index.json", "pytorch_model.bin"};

std::string file_in_folder(const std::string& folder) {
  for (const char* name : kFolderFiles) {
    std::string p = folder + "/" + name;
    if (exists(p)) return p;
  }
  std::string names;
  for (const char* name : kFolderFiles) names += fmt::format("{}{}", names.empty() ? "" : ", ", name);
  throw Diagnostic::error(fmt::format("a folder without a checkpoint: expected one of {}", names))
      .with_file(folder);
}

[[noreturn]] void bad_index(const std::string& index, const std::string& msg) {
  throw Diagnostic::error(msg).with_file(index);
}

// A shard named by an index: a file in the index's folder, never a path out of it.
std::string shard_file(const std::string& index, const std::string& name, std::string f) {
  bool escapes = f.empty() || f[0] == '/' || f == ".." || f.rfind("../", 0) == 0 ||
                 f.find("/../") != std::string::npos || ends_with(f, "/..");
  if (escapes)
    bad_index(index, fmt::format("the shard index maps '{}' to '{}': shards must be files in the index's folder",
                                 name, f));
  return f;
}

// A shard index's JSON.
nlohmann::ordered_json read_json(const std::string& index) {
  std::shared_ptr<MappedFile> file = MappedFile::open(index);
  Bytes bytes = file->bytes();
  std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  nlohmann::ordered_json j;
  try {
    j = nlohmann::ordered_json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::exception& e) {
    std::string what = e.what();
    size_t colon = what.find("] ");  // drop nlohmann's "[json.exception.parse_error.101] " tag
    bad_index(index, "the shard index is not valid JSON: " +
                         (colon == std::string::npos ? what : what.substr(colon + 2)));
  }
  return j;
}

// Reads the weight_map: (tensor name, shard file name) in the file's order.
std::vector<std::pair<std::string, std::string>> read_weight_map(const std::string& index) {
  nlohmann::ordered_json j = read_json(index);
  if (!j.is_object() || !j.contains("weight_map") || !j["weight_map"].is_object())
    bad_index(index, "the shard index has no \"weight_map\" object (expected {\"weight_map\": {tensor: shard file}})");
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [name, shard] : j["weight_map"].items()) {
    if (!shard.is_string())
      bad_index(index, fmt::format("the shard index maps '{}' to {}, not to a file name", name, shard.dump()));
    out.emplace_back(name, shard_file(index, name, shard.get<std::string>()));
  }
  return out;
}

// Keras' sharded weights (`save_weights("m.weights.json", max_shard_size=...)`): a weight_map from
// each variable group ("/layers/conv2d/vars") to the .weights.h5 shard (or shards) holding it. The
// shards are ordinary Keras weights files, named by the same dataset paths: their datasets together
// are the model's weights, bound as one Keras file.
StateDict open_keras_sharded(const std::string& index, const std::string& key) {
  nlohmann::ordered_json j = read_json(index);
  if (!j.is_object() || !j.contains("weight_map") || !j["weight_map"].is_object())
    bad_index(index, "the Keras shard index has no \"weight_map\" object");
  std::vector<std::string> shards;
  std::set<std::string> seen;
  for (const auto& [group, where] : j["weight_map"].items()) {
    std::vector<std::string> files;
    if (where.is_string()) {
      files.push_back(where.get<std::string>());
    } else if (where.is_array()) {
      for (const auto& f : where) {
        if (!f.is_string())
          bad_index(index, fmt::format("the shard index maps '{}' to {}, not to file names", group, where.dump()));
        files.push_back(f.get<std::string>());
      }
    } else {
      bad_index(index, fmt::format("the shard index maps '{}' to {}, not to a file name", group, where.dump()));
    }
    for (const std::string& f : files)
      if (seen.insert(f).second) shards.push_back(shard_file(index, group, f));
  }
  StateDict out;
  out.key = key;
  out.format = Format::Keras;
  std::unordered_map<std::string, std::string> shard_of;
  for (const std::string& shard : shards) {
    std::string path = folder_of(index) + "/" + shard;
    if (!exists(path))
      bad_index(index, fmt::format("the shard index names '{}', which is not in the index's folder", shard));
    Checkpoint ck = Checkpoint::open(path);
    if (ck.format() != Format::Keras) bad_index(index, fmt::format("the shard '{}' is not a Keras weights file", shard));
    for (NamedTensor& nt : ck.select(key).tensors) {
      auto [it, fresh] = shard_of.emplace(nt.name, shard);
      if (!fresh) bad_index(index, fmt::format("'{}' is in two shards, {} and {}", nt.name, it->second, shard));
      out.add(std::move(nt));
    }
  }
  return out;
}

StateDict open_sharded(const std::string& index, const std::string& key) {
  std::vector<std::pair<std::string, std::string>> map = read_weight_map(index);
  // Shards in the order the index first names them; each shard's tensors in its own order.
  std::vector<std::string> shards;
  std::set<std::string> seen;
  for (const auto& [name, shard] : map)
    if (seen.insert(shard).second) shards.push_back(shard);
  StateDict out;
  out.key = key;
  std::unordered_map<std::string, std::string> shard_of;  // tensor -> shard it was read from
  for (const std::string& shard : shards) {
    std::string path = folder_of(index) + "/" + shard;
    if (!exists(path))
      bad_index(index, fmt::format("the shard index names '{}', which is not in the index's folder", shard));
    Checkpoint ck = Checkpoint::open(path);
    StateDict sd = ck.select(key);
    for (NamedTensor& nt : sd.tensors) {
      auto [it, fresh] = shard_of.emplace(nt.name, shard);
      if (!fresh)
        bad_index(index, fmt::format("'{}' is in two shards, {} and {}", nt.name, it->second, shard));
      out.add(std::move(nt));
    }
  }
  for (const auto& [name, shard] : map) {
    auto it = shard_of.find(name);
    if (it == shard_of.end() || it->second != shard)
      bad_index(index, fmt::format("the shard index puts '{}' in {}, but {}", name, shard,
                                   it == shard_of.end() ? "no shard holds it" : "it is in " + it->second));
  }
  return out;
}

}  // namespace

void StateDict::add(NamedTensor t) {
  index_.emplace(t.name, tensors.size());
  tensors.push_back(std::move(t));
}

// A TensorFlow checkpoint is named by its prefix ("ckpt-1", as tf.train.Checkpoint.save returns it)
// or a SavedModel folder; its table is PREFIX.index. "" when `path` is not one.
std::string tf_checkpoint_index(const std::string& path) {
  if (is_directory(path)) {
    std::string saved_model = path + "/variables/variables.index";
    return exists(saved_model) ? saved_model : "";
  }
  if (!exists(path) && exists(path + ".index")) return path + ".index";
  size_t data = path.rfind(".data-");  // a data shard named instead of the prefix
  if (data != std::string::npos && path.find('/', data) == std::string::npos && exists(path.substr(0, data) + ".index"))
    return path.substr(0, data) + ".index";
  return "";
}

StateDict open_state_dict(const std::string& path, const std::string& key) {
  std::string file = tf_checkpoint_index(path);
  if (file.empty()) file = is_directory(path) ? file_in_folder(path) : path;
  if (ends_with(file, ".index.json")) return open_sharded(file, key);
  if (ends_with(file, ".weights.json")) return open_keras_sharded(file, key);
  return Checkpoint::open(file).select(key);
}

}  // namespace onnxify::weights
