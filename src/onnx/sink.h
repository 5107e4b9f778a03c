// OutputFile: writes a file sequentially from small in-memory pieces and from large Bytes views,
// without ever holding a large tensor twice in memory.
//
// Bytes that are a slice of a mapped file are copied file-to-file by the kernel (copy_file_range,
// then sendfile), so their pages never enter this process; other Bytes are written straight from
// memory. Produced Bytes (support/bytes.h) are computed a chunk at a time into one buffer and
// written from it. The file is written as PATH.tmp and renamed over PATH by commit(), so a failed write never
// leaves a truncated model behind.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "support/bytes.h"
#include "support/status.h"

namespace onnxify::onnx_writer {

class OutputFile {
 public:
  explicit OutputFile(std::string path) : path_(std::move(path)) {}
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  Status open();
  Status write(std::string_view data);
  Status write(const Bytes& data);
  // Zero bytes up to `offset` (for aligned external data).
  Status pad_to(uint64_t offset);
  uint64_t offset() const { return offset_; }
  Status commit();

  // How many bytes went through the kernel's file-to-file copy (for stats and tests).
  uint64_t copied_in_kernel() const { return kernel_bytes_; }

 private:
  Status flush();
  Status write_raw(const void* data, size_t size);
  Status fail(const std::string& what, int err);
  // A read-only descriptor on the file behind a mapped view, or -1 when it cannot be used.
  int source_fd(const Bytes& b);

  std::string path_;
  std::string tmp_;
  int fd_ = -1;
  uint64_t offset_ = 0;
  std::string buffer_;
  bool committed_ = false;
  bool kernel_copy_ok_ = true;
  uint64_t kernel_bytes_ = 0;
  std::map<std::string, int> sources_;
  // Where produced tensors are computed a chunk at a time: one buffer for every tensor of the file,
  // never zeroed (each chunk is computed whole before it is written).
  std::unique_ptr<uint8_t[]> chunk_;
  size_t chunk_size_ = 0;
};

}  // namespace onnxify::onnx_writer
