// Zero-copy byte views with shared ownership (DESIGN.md decision 9: weights are never copied twice).
//
// A checkpoint is mmapped once; every tensor and every ONNX initializer made from it is a Bytes
// view into that mapping, and the mapping lives as long as any view does. Inflated zip entries and
// folded constants own a heap buffer instead; users of Bytes cannot tell the difference.
#pragma once

#include <cstddef>
#include <cstdint>
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

  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  std::string_view view() const { return {reinterpret_cast<const char*>(data_), size_}; }

  // A sub-view sharing the same owner. Throws std::out_of_range when it does not fit.
  Bytes slice(size_t offset, size_t length) const;

  // True when the bytes live in a file mapping (so a writer may stream them without a copy).
  bool is_mapped() const { return mapped_file_ != nullptr; }
  // The mapped file's path and this view's offset in it, when is_mapped().
  const std::string& mapped_path() const;
  size_t mapped_offset() const;

 private:
  friend class MappedFile;
  std::shared_ptr<const void> owner_;
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  const class MappedFile* mapped_file_ = nullptr;
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
