#include "onnx/sink.h"

#include "support/exit_release.h"
#include "support/fd_io.h"

#include <fcntl.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

namespace onnxify::onnx_writer {

namespace {
constexpr size_t kBufferSize = 1 << 20;
// Produced bytes are computed this much at a time: big enough for the producer to split across
// cores, small enough to stay in cache between being computed and being written.
constexpr size_t kProducedChunk = 4 << 20;

// A reference to the large file the rename is about to replace (-1 when there is none worth
// keeping), so that freeing it happens when the reference is let go (support/exit_release.h), not
// inside rename(). O_PATH needs no read permission; O_NOFOLLOW keeps a symlink's target out of it.
int hold_replaced_file(const std::string& path) {
  constexpr off_t kLarge = 8 << 20;
  int fd = ::open(path.c_str(), O_PATH | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return -1;
  struct stat st{};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1 || st.st_size < kLarge) {
    ::close(fd);
    return -1;
  }
  return fd;
}

}  // namespace

OutputFile::~OutputFile() {
  for (auto& [p, fd] : sources_)
    if (fd >= 0) ::close(fd);
  if (fd_ >= 0) ::close(fd_);
  if (!committed_ && !tmp_.empty()) ::unlink(tmp_.c_str());
}

Status OutputFile::fail(const std::string& what, int err) {
  return Status::error(fmt::format("cannot {} '{}': {}", what, path_, std::strerror(err)));
}

Status OutputFile::open() {
  tmp_ = path_ + ".tmp";
  fd_ = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) {
    int err = errno;
    tmp_.clear();
    return fail("create", err);
  }
  buffer_.reserve(kBufferSize);
  return Status::ok();
}

Status OutputFile::write_raw(const void* data, size_t size) {
  if (!write_fully(fd_, data, size)) return fail("write", errno);
  return Status::ok();
}

Status OutputFile::flush() {
  if (buffer_.empty()) return Status::ok();
  Status s = write_raw(buffer_.data(), buffer_.size());
  buffer_.clear();
  return s;
}

Status OutputFile::write(std::string_view data) {
  offset_ += data.size();
  if (buffer_.size() + data.size() > kBufferSize) {
    if (Status s = flush(); !s) return s;
    if (data.size() > kBufferSize) return write_raw(data.data(), data.size());
  }
  buffer_.append(data);
  return Status::ok();
}

int OutputFile::source_fd(const Bytes& b) {
  auto it = sources_.find(b.mapped_path());
  if (it == sources_.end()) {
    int fd = ::open(b.mapped_path().c_str(), O_RDONLY | O_CLOEXEC);
    it = sources_.emplace(b.mapped_path(), fd).first;
  }
  int fd = it->second;
  if (fd < 0) return -1;
  // The file must still hold the bytes the mapping shows (it could have been truncated since).
  struct stat st {};
  if (::fstat(fd, &st) != 0 || static_cast<uint64_t>(st.st_size) < b.mapped_offset() + b.size()) return -1;
  return fd;
}

Status OutputFile::write(const Bytes& data) {
  if (data.is_produced()) {
    // Computed a chunk at a time into one reused buffer and written: the whole never exists in
    // memory (fresh pages for it were most of a resnet50 export's kernel time).
    if (Status s = flush(); !s) return s;
    const size_t unit = data.produced_unit();
    const size_t size = std::min(data.size(), std::max(unit, kProducedChunk / unit * unit));
    if (size > chunk_size_) {
      chunk_ = std::make_unique_for_overwrite<uint8_t[]>(size);
      chunk_size_ = size;
    }
    for (size_t done = 0; done < data.size();) {
      size_t n = std::min(size, data.size() - done);
      data.read(done, n, chunk_.get());
      if (Status s = write_raw(chunk_.get(), n); !s) return s;
      done += n;
    }
    offset_ += data.size();
    return Status::ok();
  }
  if (data.size() < (64 << 10) || !data.is_mapped() || !kernel_copy_ok_) {
    if (data.size() < kBufferSize) return write(data.view());
    if (Status s = flush(); !s) return s;
    offset_ += data.size();
    return write_raw(data.data(), data.size());
  }
  if (Status s = flush(); !s) return s;
  int in = source_fd(data);
  if (in < 0) {
    offset_ += data.size();
    return write_raw(data.data(), data.size());
  }
  // File to file inside the kernel: the tensor's pages never enter this process.
  loff_t in_off = static_cast<loff_t>(data.mapped_offset());
  size_t left = data.size();
  bool use_sendfile = false;
  while (left > 0) {
    ssize_t n;
    if (!use_sendfile) {
      n = ::copy_file_range(in, &in_off, fd_, nullptr, left, 0);
      if (n < 0 &&
          (errno == EXDEV || errno == EINVAL || errno == ENOSYS || errno == EOPNOTSUPP || errno == EBADF)) {
        use_sendfile = true;
        continue;
      }
    } else {
      off_t off = in_off;
      n = ::sendfile(fd_, in, &off, std::min<size_t>(left, 1 << 30));
      if (n > 0) in_off = off;
      if (n < 0 && (errno == EINVAL || errno == ENOSYS)) {
        // Neither works here: write the rest from the mapping.
        kernel_copy_ok_ = false;
        size_t done = data.size() - left;
        offset_ += done;
        kernel_bytes_ += done;
        offset_ += left;
        return write_raw(data.data() + done, left);
      }
    }
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail("write", errno);
    }
    if (n == 0)
      return Status::error(fmt::format("cannot copy from '{}': the file ended early", data.mapped_path()));
    left -= static_cast<size_t>(n);
  }
  offset_ += data.size();
  kernel_bytes_ += data.size();
  return Status::ok();
}

Status OutputFile::pad_to(uint64_t offset) {
  if (offset <= offset_) return Status::ok();
  static const std::string zeros(4096, '\0');
  while (offset_ < offset) {
    size_t n = static_cast<size_t>(std::min<uint64_t>(offset - offset_, zeros.size()));
    if (Status s = write(std::string_view(zeros.data(), n)); !s) return s;
  }
  return Status::ok();
}

Status OutputFile::commit() {
  if (Status s = flush(); !s) return s;
  if (::close(fd_) != 0) {
    fd_ = -1;
    return fail("write", errno);
  }
  fd_ = -1;
  int replaced = hold_replaced_file(path_);
  if (::rename(tmp_.c_str(), path_.c_str()) != 0) {
    int err = errno;
    if (replaced >= 0) ::close(replaced);
    return fail("rename to", err);
  }
  // The rename dropped the old file's last link; its blocks are freed when this reference goes.
  release_at_exit_or_close(replaced);
  committed_ = true;
  return Status::ok();
}

}  // namespace onnxify::onnx_writer
