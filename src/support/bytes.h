// Zero-copy byte views with shared ownership (DESIGN.md decision 9: weights are never copied twice).
//
// A checkpoint is mmapped once; every tensor and every ONNX initializer made from it is a Bytes
// view into that mapping, and the mapping lives as long as any view does. Inflated zip entries and
// folded constants own a heap buffer instead; users of Bytes cannot tell the difference.
//
// Bytes a weight transform computes from other bytes (BatchNorm folded into a convolution's
// weights) may be *produced*: kept as the function that computes any range of them, so the ONNX
// writer computes them a chunk at a time straight into the file (read()) and they never exist
// whole in memory. Anything that asks for data() gets them computed once into a buffer of their
// own, so a produced Bytes is an ordinary one to every other user, only slower the first time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace onnxify {

class Bytes {
 public:
  Bytes() = default;
  Bytes(std::shared_ptr<const void> owner, const uint8_t* data, size_t size)
      : owner_(std::move(owner)), data_(data), size_(size) {}

  // Takes ownership of a heap buffer.
  static Bytes from_vector(std::vector<uint8_t> v);
  static Bytes copy_of(const void* data, size_t size);
  // `size` bytes, not initialized, for a producer that writes every one (weight transforms):
  // *data is where to write them. A large buffer is its own mapping in transparent huge pages, so
  // touching it first costs a page fault per 2 MiB instead of per 4 KiB.
  static Bytes uninitialized(size_t size, uint8_t** data);

  // Writes bytes [offset, offset + size) of the whole into `out`. Called with offset and size
  // multiples of the producer's `unit` (its element size), except a size that reaches the end; it
  // may be called from several threads at once for disjoint ranges, and must not throw.
  using Producer = std::function<void(size_t offset, size_t size, uint8_t* out)>;
  // `size` bytes that `produce` computes on demand; it and what it captures live as long as the
  // Bytes (or any copy) does.
  static Bytes produced(size_t size, size_t unit, Producer produce);

  // Computes produced bytes first (once: every copy shares the result).
  const uint8_t* data() const { return lazy_ ? computed_data() : data_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  std::string_view view() const { return {reinterpret_cast<const char*>(data()), size_}; }

  // True while the bytes are a producer's and nothing has asked for data() yet.
  bool is_produced() const;
  // The producer's unit (1 for other bytes): ranges of whole units are computed straight into the
  // reader's buffer.
  size_t produced_unit() const;
  // Bytes [offset, offset + size) into `out`: copied from memory, or computed for that range only
  // when is_produced(). Throws std::out_of_range when the range does not fit.
  void read(size_t offset, size_t size, uint8_t* out) const;
  // The same for a reader that can use them in place: a pointer to the range in memory, or into
  // `scratch` where they were computed.
  const uint8_t* range(size_t offset, size_t size, std::vector<uint8_t>& scratch) const;
  // Equal for views of the same bytes, without computing produced ones (identity, not content).
  const void* identity() const { return lazy_ ? static_cast<const void*>(lazy_.get()) : data_; }

  // A sub-view sharing the same owner (of produced bytes: of their computed buffer). Throws
  // std::out_of_range when it does not fit.
  Bytes slice(size_t offset, size_t length) const;

  // True when the bytes live in a file mapping (so a writer may stream them without a copy).
  bool is_mapped() const { return mapped_file_ != nullptr; }
  // The mapped file's path and this view's offset in it, when is_mapped().
  const std::string& mapped_path() const;
  size_t mapped_offset() const;

 private:
  friend class MappedFile;
  struct Lazy;
  const uint8_t* computed_data() const;
  std::shared_ptr<const void> owner_;
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  const class MappedFile* mapped_file_ = nullptr;
  std::shared_ptr<Lazy> lazy_;  // set for produced bytes
};

// A read-only mmap of a whole file. Create with open(); views come from bytes().
class MappedFile : public std::enable_shared_from_this<MappedFile> {
 public:
  // Throws Diagnostic (with the file name) when the file cannot be opened or mapped.
  static std::shared_ptr<MappedFile> open(const std::string& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  const std::string& path() const { return path_; }
  size_t size() const { return size_; }
  const uint8_t* data() const { return data_; }
  // The whole file as a Bytes view that keeps this mapping alive.
  Bytes bytes() const;

 private:
  MappedFile() = default;
  std::string path_;
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace onnxify
