// Zip reading after PKWARE's APPNOTE: the end-of-central-directory record (and its zip64
// locator and record) give the central directory; each central entry gives sizes and the offset
// of a local header, which is followed by the entry's data. Every offset and size read from the
// file is checked against the file's size before it is used, and nothing is allocated from a
// claimed size: a deflated entry's buffer grows with the data zlib actually produces.
#include "weights/zip.h"

#include <fmt/core.h>
#include <zlib.h>

#include <algorithm>
#include <cstring>

#include "support/diagnostic.h"

namespace onnxify::weights {

namespace {

constexpr uint32_t kLocalHeaderSig = 0x04034b50;
constexpr uint32_t kCentralSig = 0x02014b50;
constexpr uint32_t kEndSig = 0x06054b50;
constexpr uint32_t kZip64EndSig = 0x06064b50;
constexpr uint32_t kZip64LocatorSig = 0x07064b50;
constexpr size_t kEndSize = 22, kCentralSize = 46, kLocalSize = 30, kZip64EndSize = 56, kLocatorSize = 20;

uint16_t u16(const uint8_t* p) { return static_cast<uint16_t>(p[0] | p[1] << 8); }
uint32_t u32(const uint8_t* p) { return u16(p) | static_cast<uint32_t>(u16(p + 2)) << 16; }
uint64_t u64(const uint8_t* p) { return u32(p) | static_cast<uint64_t>(u32(p + 4)) << 32; }

[[noreturn]] void corrupt(const std::string& what) {
  throw Diagnostic::error("corrupt zip archive: " + what);
}

// True when [offset, offset + size) lies inside a file of `file_size` bytes.
bool fits(uint64_t offset, uint64_t size, uint64_t file_size) {
  return offset <= file_size && size <= file_size - offset;
}

// Reads the zip64 extended-information extra field: the 64-bit values replace the 32-bit fields
// that hold 0xFFFFFFFF, in the order usize, csize, offset.
void apply_zip64_extra(ZipEntry& e, const uint8_t* extra, size_t len, uint32_t usize32, uint32_t csize32,
                       uint32_t offset32) {
  size_t pos = 0;
  while (pos + 4 <= len) {
    uint16_t id = u16(extra + pos), size = u16(extra + pos + 2);
    if (pos + 4 + size > len) break;  // a malformed trailing block; the fields below stay 32-bit
    if (id == 0x0001) {
      const uint8_t* p = extra + pos + 4;
      size_t left = size;
      auto take = [&](uint64_t& field) {
        if (left < 8) corrupt(fmt::format("entry '{}' has a short zip64 extra field", e.name));
        field = u64(p);
        p += 8;
        left -= 8;
      };
      if (usize32 == 0xFFFFFFFFu) take(e.uncompressed_size);
      if (csize32 == 0xFFFFFFFFu) take(e.compressed_size);
      if (offset32 == 0xFFFFFFFFu) take(e.local_header_offset);
      return;
    }
    pos += 4 + size;
  }
}

// zlib's crc32 takes a 32-bit length; feed it in pieces.
uint32_t crc32_of(const uint8_t* p, size_t n) {
  uLong crc = ::crc32(0, nullptr, 0);
  for (size_t off = 0; off < n; off += size_t{1} << 30)
    crc = ::crc32(crc, p + off, static_cast<uInt>(std::min(n - off, size_t{1} << 30)));
  return static_cast<uint32_t>(crc);
}

}  // namespace

bool looks_like_zip(const Bytes& f) {
  if (f.size() < 4) return false;
  uint32_t sig = u32(f.data());
  return sig == kLocalHeaderSig || sig == kEndSig;
}

ZipArchive::ZipArchive(Bytes file) : file_(std::move(file)) {
  const uint8_t* d = file_.data();
  const uint64_t n = file_.size();
  if (n < kEndSize) corrupt("the file is too short to hold a zip directory (is it truncated?)");

  // The end record sits in the last 22 + 65535 (comment) bytes; search backwards.
  uint64_t end = n - kEndSize;
  uint64_t stop = n - kEndSize > 65535 ? n - kEndSize - 65535 : 0;
  for (;; --end) {
    if (u32(d + end) == kEndSig && end + kEndSize + u16(d + end + 20) <= n) break;
    if (end == stop) corrupt("no end-of-central-directory record (is the file truncated?)");
  }
  uint64_t disk = u16(d + end + 4), cd_disk = u16(d + end + 6);
  uint64_t count = u16(d + end + 10);
  uint64_t cd_size = u32(d + end + 12), cd_offset = u32(d + end + 16);

  // Zip64: a locator right before the end record points at the zip64 end record.
  if (end >= kLocatorSize && u32(d + end - kLocatorSize) == kZip64LocatorSig) {
    uint64_t z = u64(d + end - kLocatorSize + 8);
    if (!fits(z, kZip64EndSize, n) || u32(d + z) != kZip64EndSig)
      corrupt("the zip64 end-of-central-directory record is missing or misplaced");
    disk = u32(d + z + 16);
    cd_disk = u32(d + z + 20);
    count = u64(d + z + 32);
    cd_size = u64(d + z + 40);
    cd_offset = u64(d + z + 48);
  }
  if (disk != 0 || cd_disk != 0)
    throw Diagnostic::error("zip archives split over several disks are not supported");
  if (!fits(cd_offset, cd_size, n))
    corrupt(fmt::format("the central directory (offset {}, {} bytes) lies outside the file ({} bytes)",
                        cd_offset, cd_size, n));

  entries_.reserve(std::min<uint64_t>(count, cd_size / kCentralSize));
  uint64_t pos = cd_offset, cd_end = cd_offset + cd_size;
  for (uint64_t i = 0; i < count; ++i) {
    if (pos + kCentralSize > cd_end || u32(d + pos) != kCentralSig)
      corrupt(
          fmt::format("central directory entry {} of {} is missing or has a bad signature", i + 1, count));
    const uint8_t* c = d + pos;
    uint64_t name_len = u16(c + 28), extra_len = u16(c + 30), comment_len = u16(c + 32);
    if (pos + kCentralSize + name_len + extra_len + comment_len > cd_end)
      corrupt(fmt::format("central directory entry {} runs past the directory's end", i + 1));
    ZipEntry e;
    e.name.assign(reinterpret_cast<const char*>(c + kCentralSize), name_len);
    e.flags = u16(c + 8);
    e.method = u16(c + 10);
    e.crc32 = u32(c + 16);
    uint32_t csize32 = u32(c + 20), usize32 = u32(c + 24), offset32 = u32(c + 42);
    e.compressed_size = csize32;
    e.uncompressed_size = usize32;
    e.local_header_offset = offset32;
    apply_zip64_extra(e, c + kCentralSize + name_len, extra_len, usize32, csize32, offset32);
    entries_.push_back(std::move(e));
    pos += kCentralSize + name_len + extra_len + comment_len;
  }
  // Index after the vector stops moving; the first of duplicate names wins.
  for (size_t i = 0; i < entries_.size(); ++i) index_.emplace(entries_[i].name, i);
}

const ZipEntry* ZipArchive::find(std::string_view name) const {
  auto it = index_.find(name);
  return it == index_.end() ? nullptr : &entries_[it->second];
}

Bytes ZipArchive::read(const ZipEntry& e, bool verify_stored_crc) const {
  const uint8_t* d = file_.data();
  const uint64_t n = file_.size();
  if (e.flags & 1) throw Diagnostic::error(fmt::format("zip entry '{}' is encrypted", e.name));
  if (!fits(e.local_header_offset, kLocalSize, n) || u32(d + e.local_header_offset) != kLocalHeaderSig)
    corrupt(fmt::format("entry '{}' has no local header at offset {}", e.name, e.local_header_offset));
  const uint8_t* l = d + e.local_header_offset;
  uint64_t data_offset = e.local_header_offset + kLocalSize + u16(l + 26) + u16(l + 28);
  if (!fits(data_offset, e.compressed_size, n))
    corrupt(fmt::format("entry '{}' ({} bytes at offset {}) runs past the end of the file (is it truncated?)",
                        e.name, e.compressed_size, data_offset));

  if (e.method == 0) {
    if (e.compressed_size != e.uncompressed_size)
      corrupt(fmt::format("stored entry '{}' has compressed size {} but uncompressed size {}", e.name,
                          e.compressed_size, e.uncompressed_size));
    Bytes out = file_.slice(data_offset, e.uncompressed_size);
    if (verify_stored_crc) {
      uint32_t crc = crc32_of(out.data(), out.size());
      if (crc != e.crc32)
        corrupt(fmt::format("entry '{}' has CRC-32 {:08x} but its header says {:08x}", e.name, crc, e.crc32));
    }
    return out;
  }
  if (e.method != 8)
    throw Diagnostic::error(
        fmt::format("zip entry '{}' uses compression method {}; onnxify reads stored and deflated entries",
                    e.name, e.method));

  // Deflate cannot expand more than ~1032:1; a larger claim is a lie we need not believe.
  if (e.uncompressed_size / 1032 > e.compressed_size + 1)
    corrupt(fmt::format("entry '{}' claims {} bytes inflated from only {}", e.name, e.uncompressed_size,
                        e.compressed_size));
  z_stream zs{};
  if (inflateInit2(&zs, -MAX_WBITS) != Z_OK) throw Diagnostic::error("zlib: cannot initialise inflate");
  std::vector<uint8_t> out;
  out.reserve(static_cast<size_t>(std::min<uint64_t>(e.uncompressed_size, uint64_t{64} << 20)));
  const uint8_t* in = d + data_offset;
  uint64_t in_left = e.compressed_size;
  int rc = Z_OK;
  while (rc != Z_STREAM_END) {
    if (out.size() >= e.uncompressed_size + 1) break;  // more than claimed: stop, report below
    size_t have = out.size();
    size_t grow = static_cast<size_t>(std::min<uint64_t>(e.uncompressed_size + 1 - have, size_t{1} << 24));
    out.resize(have + grow);
    zs.next_out = out.data() + have;
    zs.avail_out = static_cast<uInt>(grow);
    uInt feed = static_cast<uInt>(std::min<uint64_t>(in_left, 1u << 30));
    zs.next_in = const_cast<Bytef*>(in);
    zs.avail_in = feed;
    rc = ::inflate(&zs, Z_NO_FLUSH);
    in += feed - zs.avail_in;
    in_left -= feed - zs.avail_in;
    out.resize(have + grow - zs.avail_out);
    if (rc == Z_STREAM_END) break;
    if (rc == Z_BUF_ERROR && in_left == 0 && zs.avail_out != 0) rc = Z_DATA_ERROR;  // input ran out
    if (rc != Z_OK && rc != Z_BUF_ERROR) {
      std::string msg = zs.msg ? zs.msg : "truncated data";
      inflateEnd(&zs);
      corrupt(fmt::format("entry '{}' fails to inflate: {}", e.name, msg));
    }
  }
  inflateEnd(&zs);
  if (rc != Z_STREAM_END)
    corrupt(fmt::format("entry '{}' inflates to more than the {} bytes its header says", e.name,
                        e.uncompressed_size));
  if (out.size() != e.uncompressed_size)
    corrupt(fmt::format("entry '{}' inflates to {} bytes but its header says {}", e.name, out.size(),
                        e.uncompressed_size));
  uint32_t crc = crc32_of(out.data(), out.size());
  if (crc != e.crc32)
    corrupt(fmt::format("entry '{}' has CRC-32 {:08x} but its header says {:08x}", e.name, crc, e.crc32));
  return Bytes::from_vector(std::move(out));
}

}  // namespace onnxify::weights
