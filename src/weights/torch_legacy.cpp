// The legacy format (PyTorch < 1.6, or torch.save(..., _use_new_zipfile_serialization=False)):
// one stream of pickles followed by raw storages.
//
//   pickle  MAGIC_NUMBER (0x1950a86a20f9469cfc6c)
//   pickle  PROTOCOL_VERSION (1001)
//   pickle  sys_info {'protocol_version', 'little_endian', 'type_sizes'}
//   pickle  the object; storages are persistent ids
//           ('storage', torch.FloatStorage, root_key, location, numel, view_metadata)
//   pickle  the storage keys, in the order their data follows
//   for each key: int64 element count (little-endian), then that many elements' bytes
//
// The storages' bytes are only found after the object is read, so tensors are bound at the end.
#include <fmt/core.h>

#include <unordered_map>

#include "support/diagnostic.h"
#include "weights/loaders.h"
#include "weights/unpickler.h"

namespace onnxify::weights {

namespace {

constexpr std::string_view kMagicDecimal = "119547037146038801333356";  // 0x1950a86a20f9469cfc6c
constexpr int64_t kProtocolVersion = 1001;

[[noreturn]] void fail(std::string msg) { throw Diagnostic::error(std::move(msg)); }

}  // namespace

Value load_torch_legacy(const Bytes& file, Heap& heap) {
  UnpickleOptions header;
  header.name = "the legacy header";
  UnpickleResult magic = unpickle(file, 0, heap, header);
  if (!magic.value.is(Kind::BigInt) || magic.value.bigint().decimal() != kMagicDecimal)
    fail("a pickle without torch's magic number: not a checkpoint written by torch.save");
  UnpickleResult version = unpickle(file, magic.end, heap, header);
  if (!version.value.is_int() || version.value.as_int() != kProtocolVersion)
    fail(fmt::format("unsupported legacy checkpoint version {} (onnxify reads {})", repr(version.value),
                     kProtocolVersion));
  UnpickleResult sys_info = unpickle(file, version.end, heap, header);
  if (sys_info.value.is(Kind::Dict)) {
    Value key = heap.str("little_endian");
    const Value* le = sys_info.value.dict().get(key);
    if (le && le->is_int() && !le->as_bool())
      fail("a big-endian legacy checkpoint; onnxify reads little-endian data");
  }

  std::unordered_map<std::string, StorageObject*> roots, views;
  auto storage = [&](std::unordered_map<std::string, StorageObject*>& table, const std::string& key,
                     DType dtype, int64_t numel) {
    auto [it, inserted] = table.emplace(key, nullptr);
    if (inserted) {
      it->second = heap.make<StorageObject>();
      it->second->key = key;
      it->second->dtype = dtype;
      it->second->numel = numel;
    }
    return it->second;
  };
  UnpickleOptions main;
  main.name = "the checkpoint's main pickle";
  main.persistent_load = [&](const Value& pid) -> Value {
    StorageRef ref = parse_storage_ref(pid, 6);
    StorageObject* root = storage(roots, ref.key, ref.dtype, ref.numel);
    if (ref.view_metadata.is_none()) return Value::object(Kind::Storage, root);
    // (view_key, offset, view_size): a window of the root storage, in elements.
    const Value& vm = ref.view_metadata;
    if (!vm.is(Kind::Tuple) || vm.seq().items.size() != 3 || !vm.seq().items[0].is(Kind::Str) ||
        !vm.seq().items[1].is_int() || !vm.seq().items[2].is_int() || vm.seq().items[1].as_int() < 0 ||
        vm.seq().items[2].as_int() < 0)
      fail(fmt::format("storage '{}' has malformed view metadata {}", ref.key, repr(vm)));
    StorageObject* view = storage(views, vm.seq().items[0].as_str(), ref.dtype, vm.seq().items[2].as_int());
    view->view_of = root;
    view->view_offset = vm.seq().items[1].as_int();
    return Value::object(Kind::Storage, view);
  };
  UnpickleResult object = unpickle(file, sys_info.end, heap, main);

  UnpickleOptions keys_options;
  keys_options.name = "the storage key list";
  UnpickleResult keys = unpickle(file, object.end, heap, keys_options);
  if (!keys.value.is(Kind::List)) fail(fmt::format("the storage key list is a {}", keys.value.type_name()));
  uint64_t pos = keys.end;
  const uint64_t size = file.size();
  for (const Value& k : keys.value.seq().items) {
    if (!k.is(Kind::Str)) fail(fmt::format("a storage key is a {}, not a string", k.type_name()));
    auto it = roots.find(k.as_str());
    if (it == roots.end())
      fail(fmt::format("the key list names storage '{}', which no tensor uses", k.as_str()));
    StorageObject* s = it->second;
    if (s->loaded) fail(fmt::format("the key list names storage '{}' twice", k.as_str()));
    if (size - pos < 8)
      fail(
          fmt::format("the file is truncated: storage '{}' should start at byte {} but the file has {} bytes",
                      s->key, pos, size));
    uint64_t count = 0;
    for (int i = 7; i >= 0; --i) count = count << 8 | file.data()[pos + i];
    pos += 8;
    if (count != static_cast<uint64_t>(s->numel))
      fail(fmt::format("storage '{}' holds {} elements but the pickle declares {}", s->key, count, s->numel));
    uint64_t nbytes = count * element_size(s->dtype);  // numel was checked when the id was parsed
    if (size - pos < nbytes)
      fail(fmt::format("the file is truncated: storage '{}' needs {} bytes at byte {} but the file has {}",
                       s->key, nbytes, pos, size));
    s->data = file.slice(pos, nbytes);
    s->loaded = true;
    pos += nbytes;
  }
  return object.value;
}

}  // namespace onnxify::weights
