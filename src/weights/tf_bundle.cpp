// TensorFlow checkpoints: the tensor bundle that tf.train.Checkpoint.write/save and
// tf.saved_model.save (its variables/variables.*) write.
//
//   PREFIX.index                    a LevelDB-format table: checkpoint key -> BundleEntryProto
//   PREFIX.data-SSSSS-of-NNNNN      the tensors' bytes, row-major, at each entry's offset
//
// The table (LevelDB's format, which TensorFlow's lib/io keeps): data blocks of sorted,
// prefix-compressed keys, an index block mapping each data block's last key to its place, and a
// 48-byte footer ending in a magic number. Each block is followed by a type byte (0: stored,
// 1: Snappy) and a masked CRC-32C of the block and that byte. The empty key holds the
// BundleHeaderProto (1 num_shards, 2 endianness); every other key a BundleEntryProto:
//   1 dtype (DataType), 2 shape (TensorShapeProto: 2 dim {1 size}, 3 unknown_rank), 3 shard_id,
//   4 offset, 5 size, 6 crc32c (fixed32, masked), 7 slices (a partitioned variable's pieces).
// Protobuf's wire format is read here directly: four small messages, where generating them would
// bring TensorFlow's .proto tree into the build.
//
// Names: an object-based checkpoint names a variable by the attribute path its object graph walks
// ("layers/0/w/.ATTRIBUTES/VARIABLE_VALUE"); it is read as the qualified name "layers.0.w", which is
// the state_dict name tf.Module's attributes get in onnxify's tensorflow prelude. What is not a model
// tensor is left out: the object graph itself (a string tensor, as are all string tensors), the
// optimizer's slot variables, and tf.train.Checkpoint's own save_counter.
#include <fmt/core.h>

#include <string_view>

#include "support/crc32c.h"
#include "support/diagnostic.h"
#include "weights/loaders.h"

namespace onnxify::weights {

namespace {

constexpr uint64_t kTableMagic = 0xdb4775248b80fb57ull;
constexpr size_t kFooterSize = 48;
constexpr size_t kBlockTrailer = 5;  // type byte + masked CRC-32C
constexpr std::string_view kValueSuffix = "/.ATTRIBUTES/VARIABLE_VALUE";

[[noreturn]] void fail(std::string msg) { throw Diagnostic::error(std::move(msg)); }

uint32_t fixed32(const uint8_t* p) { return p[0] | p[1] << 8 | p[2] << 16 | uint32_t(p[3]) << 24; }
uint64_t fixed64(const uint8_t* p) { return fixed32(p) | uint64_t(fixed32(p + 4)) << 32; }

// A bounded cursor over bytes: varints, fixed-size words and length-delimited runs, each checked.
struct Cursor {
  const uint8_t* p;
  const uint8_t* end;
  const char* what;  // for messages: "the index's footer", "tensor 'x''s entry"

  bool done() const { return p >= end; }
  uint64_t varint() {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (p >= end) fail(fmt::format("{} ends inside a number (is the file truncated?)", what));
      uint8_t b = *p++;
      v |= uint64_t(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
    fail(fmt::format("{} holds a number longer than 64 bits", what));
  }
  std::string_view take(uint64_t n) {
    if (n > uint64_t(end - p)) fail(fmt::format("{} runs past its end (is the file truncated?)", what));
    std::string_view s(reinterpret_cast<const char*>(p), n);
    p += n;
    return s;
  }
  uint32_t u32() { return fixed32(reinterpret_cast<const uint8_t*>(take(4).data())); }
  // Skips a protobuf field of wire type `wt` whose tag was read.
  void skip(uint64_t wt) {
    switch (wt) {
      case 0: varint(); return;
      case 1: take(8); return;
      case 2: take(varint()); return;
      case 5: take(4); return;
      default: fail(fmt::format("{} is not a valid protobuf message (wire type {})", what, wt));
    }
  }
};

Cursor cursor(std::string_view s, const char* what) {
  auto* p = reinterpret_cast<const uint8_t*>(s.data());
  return Cursor{p, p + s.size(), what};
}

struct BlockHandle {
  uint64_t offset = 0, size = 0;
};

BlockHandle read_handle(Cursor& c) { return BlockHandle{c.varint(), c.varint()}; }

// A block's contents, its trailer checked.
std::string_view read_block(const Bytes& file, BlockHandle h, const char* what) {
  const uint64_t n = file.size();
  if (h.offset > n || h.size > n - h.offset || kBlockTrailer > n - h.offset - h.size)
    fail(fmt::format("the index's {} lies outside the file (is it truncated?)", what));
  const uint8_t* p = file.data() + h.offset;
  uint8_t type = p[h.size];
  uint32_t stored = crc32c_unmask(fixed32(p + h.size + 1));
  uint32_t actual = crc32c(&type, 1, crc32c(p, h.size));
  if (stored != actual) fail(fmt::format("the index's {} fails its checksum: the file is damaged", what));
  if (type == 1)
    fail(fmt::format("the index's {} is Snappy-compressed; TensorFlow writes checkpoint indexes uncompressed, and "
                     "this reader does not decompress Snappy",
                     what));
  if (type != 0) fail(fmt::format("the index's {} has unknown compression type {}", what, type));
  return {reinterpret_cast<const char*>(p), h.size};
}

// Calls f(key, value) for each entry of a block, in order.
template <typename F>
void for_each_entry(std::string_view block, const char* what, F&& f) {
  if (block.size() < 4) fail(fmt::format("the index's {} is too short to be a table block", what));
  auto* base = reinterpret_cast<const uint8_t*>(block.data());
  uint32_t restarts = fixed32(base + block.size() - 4);
  if (restarts > (block.size() - 4) / 4) fail(fmt::format("the index's {} has a bad restart count", what));
  Cursor c{base, base + block.size() - 4 - 4 * size_t(restarts), what};
  std::string key;
  while (!c.done()) {
    uint64_t shared = c.varint(), unshared = c.varint(), value_len = c.varint();
    if (shared > key.size()) fail(fmt::format("the index's {} has a key sharing more than the previous one", what));
    key.resize(shared);
    key += c.take(unshared);
    f(key, c.take(value_len));
  }
}

struct Header {
  uint64_t num_shards = 1;
  uint64_t endianness = 0;  // 0 little, 1 big
};

Header parse_header(std::string_view v) {
  Header h;
  Cursor c = cursor(v, "the checkpoint's header");
  while (!c.done()) {
    uint64_t tag = c.varint();
    if (tag == (1 << 3 | 0))
      h.num_shards = c.varint();
    else if (tag == (2 << 3 | 0))
      h.endianness = c.varint();
    else
      c.skip(tag & 7);
  }
  return h;
}

struct Entry {
  std::string key, name;
  uint64_t dtype = 0;
  std::vector<int64_t> shape;
  bool unknown_rank = false, sliced = false;
  uint64_t shard = 0, offset = 0, size = 0;
  bool has_crc = false;
  uint32_t crc = 0;
};

void parse_shape(std::string_view v, Entry& e, const char* what) {
  Cursor c = cursor(v, what);
  while (!c.done()) {
    uint64_t tag = c.varint();
    if (tag == (2 << 3 | 2)) {
      Cursor d = cursor(c.take(c.varint()), what);
      int64_t size = 0;
      while (!d.done()) {
        uint64_t t = d.varint();
        if (t == (1 << 3 | 0))
          size = static_cast<int64_t>(d.varint());
        else
          d.skip(t & 7);
      }
      if (size < 0) fail(fmt::format("tensor '{}' has a dimension of unknown size ({})", e.key, size));
      e.shape.push_back(size);
    } else if (tag == (3 << 3 | 0)) {
      e.unknown_rank = c.varint() != 0;
    } else {
      c.skip(tag & 7);
    }
  }
}

Entry parse_entry(const std::string& key, std::string_view v) {
  Entry e;
  e.key = key;
  std::string what = fmt::format("tensor '{}''s entry", key);
  Cursor c = cursor(v, what.c_str());
  while (!c.done()) {
    uint64_t tag = c.varint();
    switch (tag) {
      case 1 << 3 | 0: e.dtype = c.varint(); break;
      case 2 << 3 | 2: parse_shape(c.take(c.varint()), e, what.c_str()); break;
      case 3 << 3 | 0: e.shard = c.varint(); break;
      case 4 << 3 | 0: e.offset = c.varint(); break;
      case 5 << 3 | 0: e.size = c.varint(); break;
      case 6 << 3 | 5: e.crc = c.u32(), e.has_crc = true; break;
      case 7 << 3 | 2: c.take(c.varint()), e.sliced = true; break;
      default: c.skip(tag & 7);
    }
  }
  return e;
}

// TensorFlow's DataType numbers (types.proto) onnxify reads; nullopt for the rest (strings, quantized).
std::optional<DType> dtype_of(uint64_t dt) {
  switch (dt) {
    case 1: return DType::Float32;
    case 2: return DType::Float64;
    case 3: return DType::Int32;
    case 4: return DType::UInt8;
    case 5: return DType::Int16;
    case 6: return DType::Int8;
    case 8: return DType::Complex64;
    case 9: return DType::Int64;
    case 10: return DType::Bool;
    case 14: return DType::BFloat16;
    case 17: return DType::UInt16;
    case 18: return DType::Complex128;
    case 19: return DType::Float16;
    case 22: return DType::UInt32;
    case 23: return DType::UInt64;
    case 24: return DType::Float8E5M2;
    case 25: return DType::Float8E4M3FN;
    default: return std::nullopt;
  }
}

constexpr uint64_t kDtString = 7;

// The qualified name of a checkpoint key, or "" for a key that is not a model tensor.
std::string name_of(const std::string& key) {
  if (key == "_CHECKPOINTABLE_OBJECT_GRAPH" || key.find("/.OPTIMIZER_SLOT/") != std::string::npos) return "";
  std::string path = key;
  if (path.size() > kValueSuffix.size() &&
      path.compare(path.size() - kValueSuffix.size(), kValueSuffix.size(), kValueSuffix) == 0)
    path.resize(path.size() - kValueSuffix.size());
  if (path == "save_counter") return "";
  for (char& ch : path)
    if (ch == '/') ch = '.';
  return path;
}

}  // namespace

bool looks_like_tf_bundle_index(const Bytes& file) {
  return file.size() >= kFooterSize && fixed64(file.data() + file.size() - 8) == kTableMagic;
}

Value load_tf_bundle(const Bytes& file, const std::string& index_path, Heap& heap) {
  // The footer: metaindex handle, index handle, padding, magic.
  Cursor footer{file.data() + file.size() - kFooterSize, file.data() + file.size() - 8, "the index's footer"};
  read_handle(footer);  // the metaindex (filter blocks): TensorFlow writes none worth reading
  BlockHandle index = read_handle(footer);

  Header header;
  bool have_header = false;
  std::vector<Entry> entries;
  for_each_entry(read_block(file, index, "index block"), "index block", [&](const std::string&, std::string_view v) {
    Cursor hc = cursor(v, "the index block");
    BlockHandle h = read_handle(hc);
    for_each_entry(read_block(file, h, "data block"), "data block", [&](const std::string& key, std::string_view val) {
      if (key.empty()) {
        header = parse_header(val);
        have_header = true;
        return;
      }
      entries.push_back(parse_entry(key, val));
    });
  });
  if (!have_header) fail("the checkpoint index has no header entry: not a TensorFlow checkpoint");
  if (header.endianness != 0) fail("a big-endian TensorFlow checkpoint: only little-endian ones are read");
  if (header.num_shards == 0 || header.num_shards > 100000)
    fail(fmt::format("the checkpoint header claims {} data shards", header.num_shards));

  // The data shards, mapped as they are first needed.
  constexpr std::string_view kIndex = ".index";
  const bool suffixed = index_path.size() >= kIndex.size() &&
                        index_path.compare(index_path.size() - kIndex.size(), kIndex.size(), kIndex) == 0;
  const std::string prefix = suffixed ? index_path.substr(0, index_path.size() - kIndex.size()) : index_path;
  std::vector<std::shared_ptr<MappedFile>> shards(header.num_shards);
  auto shard_bytes = [&](uint64_t id) -> Bytes {
    if (!shards[id]) {
      std::string path = fmt::format("{}.data-{:05d}-of-{:05d}", prefix, id, header.num_shards);
      try {
        shards[id] = MappedFile::open(path);
      } catch (const Diagnostic& d) {
        // Reported against the index (Checkpoint names the file it opened): say which data file.
        fail(fmt::format("its data file {}: {}", path, d.message()));
      }
    }
    return shards[id]->bytes();
  };

  Value root = heap.dict();
  for (Entry& e : entries) {
    e.name = name_of(e.key);
    if (e.name.empty() || e.dtype == kDtString) continue;
    std::optional<DType> dtype = dtype_of(e.dtype);
    if (!dtype) fail(fmt::format("tensor '{}' has TensorFlow data type {}, which onnxify does not read", e.key, e.dtype));
    if (e.sliced)
      fail(fmt::format("tensor '{}' is saved in slices (a partitioned variable); only whole tensors are read", e.key));
    if (e.unknown_rank) fail(fmt::format("tensor '{}' is saved with an unknown rank", e.key));
    if (e.shard >= header.num_shards)
      fail(fmt::format("tensor '{}' is in data shard {} of {}", e.key, e.shard, header.num_shards));
    uint64_t numel = 1, nbytes;
    for (int64_t d : e.shape)
      if (__builtin_mul_overflow(numel, uint64_t(d), &numel))
        fail(fmt::format("tensor '{}' has more elements than fit in 64 bits", e.key));
    if (__builtin_mul_overflow(numel, element_size(*dtype), &nbytes) || nbytes != e.size)
      fail(fmt::format("tensor '{}' ({}, {} elements) should span {} bytes but its entry says {}", e.key,
                       info(*dtype).name, numel, numel * element_size(*dtype), e.size));
    Bytes data = shard_bytes(e.shard);
    if (e.offset > data.size() || e.size > data.size() - e.offset)
      fail(fmt::format("tensor '{}' ends at byte {} of its {}-byte data file (is it truncated?)", e.key,
                       e.offset + e.size, data.size()));
    Bytes bytes = data.slice(e.offset, e.size);
    if (e.has_crc && crc32c_unmask(e.crc) != crc32c(bytes.data(), bytes.size()))
      fail(fmt::format("tensor '{}' fails its checksum: the data file is damaged", e.key));
    if (root.dict().get(heap.str(e.name)))
      fail(fmt::format("checkpoint keys '{}' and another both read as '{}'", e.key, e.name));

    root.dict().set(heap.str(e.name), contiguous_tensor(heap, e.name, *dtype, e.shape, std::move(bytes)));
  }
  return root;
}

}  // namespace onnxify::weights
