// Fuzzes the unpickler: any bytes, read as one pickle. Persistent ids get a small storage of a
// dtype picked from the id, so tensor rebuilding, bounds checks and checksums are reached too.
// Only Diagnostic may escape the library; ASan/UBSan report everything else.
#include <cstdint>
#include <vector>

#include "support/diagnostic.h"
#include "weights/unpickler.h"
#include "weights/weights.h"

using namespace onnxify;
using namespace onnxify::weights;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Bytes bytes = Bytes::copy_of(data, size);
  Heap heap;
  UnpickleOptions options;
  std::vector<uint8_t> storage_bytes(96);
  for (size_t i = 0; i < storage_bytes.size(); ++i) storage_bytes[i] = static_cast<uint8_t>(i * 7);
  Bytes storage = Bytes::copy_of(storage_bytes.data(), storage_bytes.size());
  options.persistent_load = [&](const Value& pid) -> Value {
    auto* s = heap.make<StorageObject>();
    size_t count;
    all_dtypes(&count);
    s->dtype = static_cast<DType>(repr(pid, 64).size() % count);
    s->numel = static_cast<int64_t>(storage.size() / element_size(s->dtype));
    s->data = storage.slice(0, static_cast<size_t>(s->numel) * element_size(s->dtype));
    s->loaded = true;
    return Value::object(Kind::Storage, s);
  };
  try {
    UnpickleResult r = unpickle(bytes, 0, heap, options);
    (void)repr(r.value, 4096);
    (void)key_name(r.value);
    for (TensorObject* t : heap.tensors()) {
      t->tensor.storage = t->storage->data;
      if (check_bounds(t->tensor).empty()) (void)checksum(t->tensor);
    }
  } catch (const Diagnostic&) {
  }
  return 0;
}
