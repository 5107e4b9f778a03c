// torch.save's zip format (PyTorch >= 1.6):
//
//   <top>/data.pkl      the pickled object; storages are persistent ids
//                       ('storage', torch.FloatStorage, '<key>', 'cpu', numel)
//   <top>/data/<key>    each storage's raw little-endian bytes (stored, 64-byte aligned)
//   <top>/version       serialization version; newer files add <top>/byteorder and .data/…
//
// <top> is whatever torch chose (the file's stem, "archive", …): it is the folder holding data.pkl.
#include <fmt/core.h>

#include <unordered_map>

#include "support/diagnostic.h"
#include "weights/loaders.h"
#include "weights/unpickler.h"
#include "weights/zip.h"

namespace onnxify::weights {

namespace {

// The folder that holds data.pkl: the first entry's top folder when it has one (as torch's reader
// does), else the only top-level folder that has one.
std::string find_prefix(const ZipArchive& zip) {
  const auto& entries = zip.entries();
  if (!entries.empty()) {
    const std::string& first = entries.front().name;
    size_t slash = first.find('/');
    std::string top = slash == std::string::npos ? "" : first.substr(0, slash + 1);
    if (zip.find(top + "data.pkl")) return top;
  }
  std::string found;
  int count = 0;
  for (const ZipEntry& e : entries) {
    const std::string& n = e.name;
    if (n.size() >= 9 && n.compare(n.size() - 9, 9, "/data.pkl") == 0 && n.find('/') == n.size() - 9) {
      if (count++ == 0) found = n.substr(0, n.size() - 8);
    }
  }
  if (count == 1) return found;
  if (count > 1) throw Diagnostic::error("the zip archive holds several data.pkl files in different folders");
  if (zip.find("data.pkl")) return "";
  throw Diagnostic::error(fmt::format(
      "a zip archive without data.pkl ({} entries): not a checkpoint written by torch.save", entries.size()));
}

// A record's bytes as Python writes a bytes literal (b'big', b'\x9a\x01'): a corrupt record
// must not put raw bytes into a diagnostic.
std::string printable_bytes(std::string_view b) {
  std::string out = "b'";
  for (unsigned char c : b) {
    if (c == '\\' || c == '\'') out += fmt::format("\\{}", static_cast<char>(c));
    else if (c >= 0x20 && c < 0x7f) out += static_cast<char>(c);
    else out += fmt::format("\\x{:02x}", c);
  }
  return out + "'";
}

}  // namespace

Value load_torch_zip(const Bytes& file, Heap& heap) {
  ZipArchive zip(file);
  std::string prefix = find_prefix(zip);
  if (zip.find(prefix + "constants.pkl"))
    throw Diagnostic::error(
        "a TorchScript archive (torch.jit.save), not a torch.save checkpoint; save model.state_dict() with "
        "torch.save");
  if (const ZipEntry* bo = zip.find(prefix + "byteorder")) {
    Bytes record = zip.read(*bo);  // (owns the inflated buffer of a deflated record: keep it alive)
    std::string_view order = record.view();
    if (order != "little")
      throw Diagnostic::error(fmt::format("the checkpoint's byte order is {}; onnxify reads little-endian data",
                                          printable_bytes(order.substr(0, 16))));
  }

  std::unordered_map<std::string, StorageObject*> storages;
  UnpickleOptions options;
  options.name = "'" + prefix + "data.pkl'";
  options.persistent_load = [&](const Value& pid) -> Value {
    StorageRef ref = parse_storage_ref(pid, 5);
    auto it = storages.find(ref.key);
    if (it != storages.end()) return Value::object(Kind::Storage, it->second);
    std::string record = prefix + "data/" + ref.key;
    const ZipEntry* e = zip.find(record);
    if (!e) throw Diagnostic::error(fmt::format("storage record '{}' is missing from the archive", record));
    Bytes bytes = zip.read(*e);
    if (bytes.size() < ref.nbytes)
      throw Diagnostic::error(
          fmt::format("storage record '{}' has {} bytes but the pickle declares {} {} elements "
                      "({} bytes)",
                      record, bytes.size(), ref.numel, name(ref.dtype), ref.nbytes));
    auto* s = heap.make<StorageObject>();
    s->dtype = ref.dtype;
    s->key = ref.key;
    s->numel = ref.numel;
    s->data = bytes.slice(0, ref.nbytes);
    s->loaded = true;
    storages.emplace(ref.key, s);
    return Value::object(Kind::Storage, s);
  };
  const ZipEntry* pkl = zip.find(prefix + "data.pkl");
  Bytes pickle = zip.read(*pkl, /*verify_stored_crc=*/true);
  return unpickle(pickle, 0, heap, options).value;
}

}  // namespace onnxify::weights
