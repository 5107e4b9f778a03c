// CRC-32C (Castagnoli), as LevelDB tables and TensorFlow's tensor bundles checksum their bytes.
// The SSE4.2 instruction where the CPU has it (about 8 GB/s), a table otherwise.
#pragma once

#include <cstddef>
#include <cstdint>

namespace onnxify {

// The CRC-32C of `n` bytes continuing from `crc` (0 to start).
uint32_t crc32c(const uint8_t* data, size_t n, uint32_t crc = 0);

// LevelDB's stored form: a CRC of data that itself holds CRCs is rotated and offset.
inline uint32_t crc32c_unmask(uint32_t masked) {
  uint32_t rot = masked - 0xa282ead8u;
  return (rot >> 17) | (rot << 15);
}

}  // namespace onnxify
