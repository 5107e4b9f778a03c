// The zip container torch.save writes (PyTorch >= 1.6): read from the central directory, zip64
// aware, stored records as zero-copy views of the mapped file, deflated ones inflated by zlib.
// Internal to src/weights.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "support/bytes.h"

namespace onnxify::weights {

struct ZipEntry {
  std::string name;
  uint16_t flags = 0;
  uint16_t method = 0;  // 0 stored, 8 deflated
  uint32_t crc32 = 0;
  uint64_t compressed_size = 0;
  uint64_t uncompressed_size = 0;
  uint64_t local_header_offset = 0;
};

class ZipArchive {
 public:
  // Parses the end-of-central-directory records and the central directory. Throws Diagnostic
  // (without a file name; the caller adds it) when they are missing or inconsistent.
  explicit ZipArchive(Bytes file);

  const std::vector<ZipEntry>& entries() const { return entries_; }
  const ZipEntry* find(std::string_view name) const;

  // The entry's contents: a view into the file for a stored entry, an inflated buffer for a
  // deflated one (its CRC-32 always checked). A stored entry's CRC-32 is checked only when asked:
  // checking means reading every byte, which listing a checkpoint must not do.
  Bytes read(const ZipEntry& e, bool verify_stored_crc = false) const;

 private:
  Bytes file_;
  std::vector<ZipEntry> entries_;
  std::unordered_map<std::string_view, size_t> index_;
};

// True when the bytes begin like a zip archive (a local file header or an empty archive).
bool looks_like_zip(const Bytes& file);

}  // namespace onnxify::weights
