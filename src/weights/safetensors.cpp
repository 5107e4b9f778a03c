// safetensors: an 8-byte little-endian header length N, N bytes of JSON
//   {"__metadata__": {str: str}, "<name>": {"dtype": "F32", "shape": [2, 3], "data_offsets": [b, e]}, …}
// then the data buffer; offsets are relative to the buffer, data is row-major little-endian.
// Tensors are listed in data order, as the safetensors library does.
#include <fmt/core.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "support/diagnostic.h"
#include "weights/loaders.h"

namespace onnxify::weights {

namespace {

// The safetensors library's limit; a larger header is more likely damage than a real file.
constexpr uint64_t kMaxHeader = 100'000'000;

[[noreturn]] void fail(std::string msg) { throw Diagnostic::error(std::move(msg)); }

uint64_t offset_field(const std::string& tensor, const nlohmann::json& v) {
  if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<int64_t>() >= 0))
    fail(fmt::format("safetensors tensor '{}' has a data offset that is not a non-negative integer", tensor));
  return v.get<uint64_t>();
}

struct Entry {
  std::string name;
  DType dtype;
  std::vector<int64_t> shape;
  uint64_t begin, end;
};

}  // namespace

Value load_safetensors(const Bytes& file, Heap& heap) {
  const uint64_t size = file.size();
  if (size < 8) fail("the file is too short for a safetensors header");
  uint64_t n = 0;
  for (int i = 7; i >= 0; --i) n = n << 8 | file.data()[i];
  if (n > size - 8)
    fail(fmt::format(
        "safetensors header claims {} bytes but the file has {} after the length (is it truncated?)", n,
        size - 8));
  if (n > kMaxHeader) fail(fmt::format("safetensors header of {} bytes is larger than the 100 MB limit", n));
  std::string_view text(reinterpret_cast<const char*>(file.data()) + 8, n);
  nlohmann::json header;
  try {
    header = nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::exception& e) {
    std::string what = e.what();
    size_t colon = what.find("] ");  // drop nlohmann's "[json.exception.parse_error.101] " tag
    fail("safetensors header is not valid JSON: " +
         (colon == std::string::npos ? what : what.substr(colon + 2)));
  }
  if (!header.is_object()) fail("safetensors header is not a JSON object");

  const uint64_t data_start = 8 + n, data_size = size - data_start;
  std::vector<Entry> entries;
  for (auto it = header.begin(); it != header.end(); ++it) {
    const std::string& name = it.key();
    const nlohmann::json& v = it.value();
    if (name == "__metadata__") {
      if (!v.is_object()) fail("safetensors __metadata__ is not a JSON object");
      continue;
    }
    if (!v.is_object() || !v.contains("dtype") || !v.contains("shape") || !v.contains("data_offsets"))
      fail(fmt::format("safetensors tensor '{}' needs dtype, shape and data_offsets", name));
    const auto& dt = v["dtype"];
    if (!dt.is_string()) fail(fmt::format("safetensors tensor '{}' has a dtype that is not a string", name));
    auto dtype = dtype_from_safetensors(dt.get<std::string>());
    if (!dtype)
      fail(fmt::format("safetensors tensor '{}' has unknown dtype '{}'", name, dt.get<std::string>()));
    Entry e{name, *dtype, {}, 0, 0};
    const auto& shape = v["shape"];
    if (!shape.is_array()) fail(fmt::format("safetensors tensor '{}' has a shape that is not a list", name));
    uint64_t numel = 1;
    for (const auto& d : shape) {
      if (!d.is_number_integer() ||
          (d.is_number_integer() && !d.is_number_unsigned() && d.get<int64_t>() < 0))
        fail(fmt::format("safetensors tensor '{}' has a dimension that is not a non-negative integer", name));
      uint64_t dim = d.get<uint64_t>();
      if (dim > static_cast<uint64_t>(INT64_MAX) || __builtin_mul_overflow(numel, dim, &numel))
        fail(fmt::format("safetensors tensor '{}' has more elements than fit in 64 bits", name));
      e.shape.push_back(static_cast<int64_t>(dim));
    }
    const auto& offsets = v["data_offsets"];
    if (!offsets.is_array() || offsets.size() != 2)
      fail(fmt::format("safetensors tensor '{}' needs data_offsets [begin, end]", name));
    e.begin = offset_field(name, offsets[0]);
    e.end = offset_field(name, offsets[1]);
    uint64_t nbytes;
    if (__builtin_mul_overflow(numel, element_size(e.dtype), &nbytes) ||
        nbytes > static_cast<uint64_t>(INT64_MAX))
      fail(fmt::format("safetensors tensor '{}' has more bytes than fit in 64 bits", name));
    if (e.end < e.begin || e.end - e.begin != nbytes)
      fail(fmt::format(
          "safetensors tensor '{}' ({}, {} elements) should span {} bytes but its offsets are [{}, {}]", name,
          info(e.dtype).name, numel, nbytes, e.begin, e.end));
    if (e.end > data_size)
      fail(fmt::format(
          "safetensors tensor '{}' ends at byte {} of a {}-byte data buffer (is the file truncated?)", name,
          e.end, data_size));
    entries.push_back(std::move(e));
  }
  std::stable_sort(entries.begin(), entries.end(),
                   [](const Entry& a, const Entry& b) { return a.begin < b.begin; });

  Bytes buffer = file.slice(data_start, data_size);
  Value root = heap.dict();
  for (Entry& e : entries) {
    root.dict().set(heap.str(e.name),
                    contiguous_tensor(heap, e.name, e.dtype, e.shape, buffer.slice(e.begin, e.end - e.begin)));
  }
  return root;
}

}  // namespace onnxify::weights
