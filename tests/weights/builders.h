// Small writers for the unit tests: zip archives (stored or deflated, optionally zip64),
// safetensors files, and byte helpers for hand-written pickles.
#pragma once

#include <zlib.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "support/bytes.h"

namespace onnxify::weights::testing {

inline Bytes bytes_of(const std::string& s) { return Bytes::copy_of(s.data(), s.size()); }

inline void put16(std::string& s, uint16_t v) {
  s += static_cast<char>(v & 0xff);
  s += static_cast<char>(v >> 8);
}
inline void put32(std::string& s, uint32_t v) {
  put16(s, static_cast<uint16_t>(v));
  put16(s, static_cast<uint16_t>(v >> 16));
}
inline void put64(std::string& s, uint64_t v) {
  put32(s, static_cast<uint32_t>(v));
  put32(s, static_cast<uint32_t>(v >> 32));
}

inline std::string raw_deflate(const std::string& data) {
  z_stream zs{};
  deflateInit2(&zs, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&zs, data.size()), '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  deflate(&zs, Z_FINISH);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

struct ZipOptions {
  bool deflate = false;
  bool zip64 = false;
};

// A zip archive as APPNOTE describes it; the same layout tests/weights/ckpt_tools.py writes.
inline std::string zip_file(const std::vector<std::pair<std::string, std::string>>& entries,
                            ZipOptions o = {}) {
  std::string out, central;
  for (const auto& [name, data] : entries) {
    uint32_t crc = static_cast<uint32_t>(
        crc32(0, reinterpret_cast<const Bytef*>(data.data()), static_cast<uInt>(data.size())));
    std::string payload = o.deflate ? raw_deflate(data) : data;
    uint16_t method = o.deflate ? 8 : 0;
    uint64_t offset = out.size();
    std::string local_extra, central_extra;
    if (o.zip64) {
      put16(local_extra, 1);
      put16(local_extra, 16);
      put64(local_extra, data.size());
      put64(local_extra, payload.size());
      put16(central_extra, 1);
      put16(central_extra, 24);
      put64(central_extra, data.size());
      put64(central_extra, payload.size());
      put64(central_extra, offset);
    }
    uint32_t csize = o.zip64 ? 0xFFFFFFFFu : static_cast<uint32_t>(payload.size());
    uint32_t usize = o.zip64 ? 0xFFFFFFFFu : static_cast<uint32_t>(data.size());
    put32(out, 0x04034b50);
    put16(out, 45), put16(out, 0), put16(out, method), put16(out, 0), put16(out, 0x21);
    put32(out, crc), put32(out, csize), put32(out, usize);
    put16(out, static_cast<uint16_t>(name.size())), put16(out, static_cast<uint16_t>(local_extra.size()));
    out += name + local_extra + payload;
    put32(central, 0x02014b50);
    put16(central, 45), put16(central, 45), put16(central, 0), put16(central, method), put16(central, 0);
    put16(central, 0x21);
    put32(central, crc), put32(central, csize), put32(central, usize);
    put16(central, static_cast<uint16_t>(name.size())),
        put16(central, static_cast<uint16_t>(central_extra.size()));
    put16(central, 0), put16(central, 0), put16(central, 0), put32(central, 0);
    put32(central, o.zip64 ? 0xFFFFFFFFu : static_cast<uint32_t>(offset));
    central += name + central_extra;
  }
  uint64_t cd_offset = out.size();
  out += central;
  uint64_t count = entries.size();
  if (o.zip64) {
    uint64_t z64 = out.size();
    put32(out, 0x06064b50), put64(out, 44), put16(out, 45), put16(out, 45), put32(out, 0), put32(out, 0);
    put64(out, count), put64(out, count), put64(out, central.size()), put64(out, cd_offset);
    put32(out, 0x07064b50), put32(out, 0), put64(out, z64), put32(out, 1);
    put32(out, 0x06054b50), put16(out, 0), put16(out, 0), put16(out, 0xFFFF), put16(out, 0xFFFF);
    put32(out, 0xFFFFFFFFu), put32(out, 0xFFFFFFFFu), put16(out, 0);
  } else {
    put32(out, 0x06054b50), put16(out, 0), put16(out, 0), put16(out, static_cast<uint16_t>(count));
    put16(out, static_cast<uint16_t>(count)), put32(out, static_cast<uint32_t>(central.size()));
    put32(out, static_cast<uint32_t>(cd_offset)), put16(out, 0);
  }
  return out;
}

inline std::string safetensors_file(const std::string& header, const std::string& data) {
  std::string out;
  put64(out, header.size());
  return out + header + data;
}

}  // namespace onnxify::weights::testing
