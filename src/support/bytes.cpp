#include "support/bytes.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <stdexcept>

#include "support/diagnostic.h"

namespace onnxify {

Bytes Bytes::from_vector(std::vector<uint8_t> v) {
  auto owner = std::make_shared<std::vector<uint8_t>>(std::move(v));
  const uint8_t* data = owner->data();
  size_t size = owner->size();
  return Bytes(std::move(owner), data, size);
}

Bytes Bytes::uninitialized(size_t size, uint8_t** data) {
  constexpr size_t kHuge = size_t{2} << 20;
  if (size >= kHuge) {
    // Not rounded up to whole huge pages: the kernel backs the aligned 2 MiB spans inside the
    // mapping with huge pages and the rest with small ones, so no touched tail goes unused.
    size_t mapped = (size + 4095) / 4096 * 4096;
    void* p = ::mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p != MAP_FAILED) {
      ::madvise(p, mapped, MADV_HUGEPAGE);  // advice only: without it the buffer works the same
      auto owner = std::shared_ptr<uint8_t>(static_cast<uint8_t*>(p), [mapped](uint8_t* q) { ::munmap(q, mapped); });
      *data = owner.get();
      return Bytes(std::move(owner), *data, size);
    }
  }
  std::shared_ptr<uint8_t[]> owner(new uint8_t[std::max<size_t>(size, 1)]);
  *data = owner.get();
  return Bytes(std::move(owner), *data, size);
}

struct Bytes::Lazy {
  size_t unit;
  Producer produce;
  std::once_flag once;
  Bytes computed;  // after the first data()
  std::atomic<bool> done{false};
};

Bytes Bytes::produced(size_t size, size_t unit, Producer produce) {
  Bytes b;
  b.size_ = size;
  b.lazy_ = std::make_shared<Lazy>();
  b.lazy_->unit = std::max<size_t>(unit, 1);
  b.lazy_->produce = std::move(produce);
  return b;
}

const uint8_t* Bytes::computed_data() const {
  Lazy& l = *lazy_;
  std::call_once(l.once, [&] {
    uint8_t* out = nullptr;
    l.computed = uninitialized(size_, &out);
    if (size_ > 0) l.produce(0, size_, out);
    l.done.store(true, std::memory_order_release);
  });
  return l.computed.data_;
}

bool Bytes::is_produced() const { return lazy_ && !lazy_->done.load(std::memory_order_acquire); }

size_t Bytes::produced_unit() const { return lazy_ ? lazy_->unit : 1; }

void Bytes::read(size_t offset, size_t size, uint8_t* out) const {
  if (offset > size_ || size > size_ - offset) throw std::out_of_range("Bytes::read outside the buffer");
  if (size == 0) return;
  if (!is_produced()) {
    std::memcpy(out, data() + offset, size);
    return;
  }
  // The producer takes whole units: compute the units covering the range, keep the part asked for.
  size_t unit = lazy_->unit, first = offset / unit * unit;
  size_t last = std::min(size_, (offset + size + unit - 1) / unit * unit);
  if (first == offset && last == offset + size) {
    lazy_->produce(offset, size, out);
    return;
  }
  std::vector<uint8_t> covering(last - first);
  lazy_->produce(first, last - first, covering.data());
  std::memcpy(out, covering.data() + (offset - first), size);
}

const uint8_t* Bytes::range(size_t offset, size_t size, std::vector<uint8_t>& scratch) const {
  if (!is_produced()) {
    if (offset > size_ || size > size_ - offset) throw std::out_of_range("Bytes::range outside the buffer");
    return data() + offset;
  }
  scratch.resize(size);
  read(offset, size, scratch.data());
  return scratch.data();
}

Bytes Bytes::copy_of(const void* data, size_t size) {
  const uint8_t* p = static_cast<const uint8_t*>(data);
  return from_vector(std::vector<uint8_t>(p, p + size));
}

Bytes Bytes::slice(size_t offset, size_t length) const {
  if (offset > size_ || length > size_ - offset)
    throw std::out_of_range("Bytes::slice outside the buffer");
  if (lazy_) {
    computed_data();
    return lazy_->computed.slice(offset, length);
  }
  Bytes b(owner_, data_ + offset, length);
  b.mapped_file_ = mapped_file_;
  return b;
}

const std::string& Bytes::mapped_path() const {
  static const std::string none;
  return mapped_file_ ? mapped_file_->path() : none;
}

size_t Bytes::mapped_offset() const { return mapped_file_ ? static_cast<size_t>(data_ - mapped_file_->data()) : 0; }

std::shared_ptr<MappedFile> MappedFile::open(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw Diagnostic::error(fmt::format("cannot open: {}", std::strerror(errno))).with_file(path);
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    throw Diagnostic::error("not a regular file").with_file(path);
  }
  std::shared_ptr<MappedFile> f(new MappedFile());
  f->path_ = path;
  f->size_ = static_cast<size_t>(st.st_size);
  if (f->size_ > 0) {
    void* p = ::mmap(nullptr, f->size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      int err = errno;
      ::close(fd);
      throw Diagnostic::error(fmt::format("cannot map: {}", std::strerror(err))).with_file(path);
    }
    f->data_ = static_cast<const uint8_t*>(p);
  }
  ::close(fd);
  return f;
}

MappedFile::~MappedFile() {
  if (data_) ::munmap(const_cast<uint8_t*>(data_), size_);
}

Bytes MappedFile::bytes() const {
  Bytes b(shared_from_this(), data_, size_);
  b.mapped_file_ = this;
  return b;
}

}  // namespace onnxify
