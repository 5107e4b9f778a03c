// Chunked HDF5 datasets are assembled here from their raw chunks instead of by H5Dread: libhdf5 1.10
// trusts a chunk's recorded size and reads past its buffer when a damaged file records less than the
// chunk holds (a heap over-read found by fuzzing). So each chunk is read raw, at its recorded size
// (H5Dread_chunk, which only copies stored bytes), its filters are undone here (deflate with zlib,
// shuffle, fletcher32 checked), its decoded size must be exactly the chunk's, and its part inside the
// dataset is copied to its place. Keras itself writes contiguous datasets; chunked ones come from a
// writer that chose them (h5py's chunks=/compression=).
#include "weights/hdf5_chunked.h"

#include <fmt/core.h>
#include <zlib.h>

#include <algorithm>
#include <cstring>

#include "support/diagnostic.h"

namespace onnxify::weights {

namespace {

struct Filter {
  H5Z_filter_t id;
  size_t shuffle_size = 0;  // shuffle: the element size it was set up with
};

// HDF5's Fletcher-32 (H5checksum.c): 16-bit big-endian words, sums folded every 360 words.
uint32_t fletcher32(const uint8_t* data, size_t len) {
  uint32_t sum1 = 0, sum2 = 0;
  for (size_t words = len / 2; words > 0;) {
    size_t block = words > 360 ? 360 : words;
    words -= block;
    for (; block > 0; --block, data += 2) {
      sum1 += (uint32_t{data[0]} << 8) | data[1];
      sum2 += sum1;
    }
    sum1 = (sum1 & 0xffff) + (sum1 >> 16);
    sum2 = (sum2 & 0xffff) + (sum2 >> 16);
  }
  if (len % 2) {
    sum1 += uint32_t{*data} << 8;
    sum2 += sum1;
    sum1 = (sum1 & 0xffff) + (sum1 >> 16);
    sum2 = (sum2 & 0xffff) + (sum2 >> 16);
  }
  sum1 = (sum1 & 0xffff) + (sum1 >> 16);
  sum2 = (sum2 & 0xffff) + (sum2 >> 16);
  return (sum2 << 16) | sum1;
}

// Inflates a zlib stream into at most `limit` bytes; false when the stream is damaged or longer.
bool inflate_zlib(const std::vector<uint8_t>& in, size_t limit, std::vector<uint8_t>& out) {
  out.assign(limit + 1, 0);  // one spare byte tells "longer than the chunk" from "exactly it"
  z_stream zs{};
  if (inflateInit(&zs) != Z_OK) return false;
  zs.next_in = const_cast<Bytef*>(in.data());
  zs.avail_in = static_cast<uInt>(in.size());
  zs.next_out = out.data();
  zs.avail_out = static_cast<uInt>(out.size());
  const int rc = ::inflate(&zs, Z_FINISH);
  const size_t produced = out.size() - zs.avail_out;
  inflateEnd(&zs);
  if (rc != Z_STREAM_END || produced > limit) return false;
  out.resize(produced);
  return true;
}

// Undoes HDF5's byte shuffle: byte j of every element was stored in plane j.
std::vector<uint8_t> unshuffle(const std::vector<uint8_t>& in, size_t esize) {
  if (esize <= 1) return in;
  std::vector<uint8_t> out(in.size());
  const size_t n = in.size() / esize;
  for (size_t j = 0; j < esize; ++j)
    for (size_t i = 0; i < n; ++i) out[i * esize + j] = in[j * n + i];
  std::memcpy(out.data() + n * esize, in.data() + n * esize, in.size() - n * esize);  // the tail as stored
  return out;
}

}  // namespace

void read_chunked(hid_t ds, hid_t space, hid_t plist, hid_t type, const std::vector<int64_t>& shape, uint8_t* out,
                  uint64_t nbytes, uint64_t file_size, const std::string& path) {
  auto fail = [&](const std::string& why) {
    throw Diagnostic::error(fmt::format("HDF5 dataset '{}' {}", path, why));
  };
  const int rank = static_cast<int>(shape.size());
  const size_t esize = H5Tget_size(type);
  std::vector<hsize_t> cdims(shape.size());
  if (rank == 0 || H5Pget_chunk(plist, rank, cdims.data()) != rank) fail("has a damaged chunk layout");
  uint64_t chunk_bytes = esize;
  for (hsize_t c : cdims)
    if (c == 0 || __builtin_mul_overflow(chunk_bytes, c, &chunk_bytes) || chunk_bytes > (uint64_t{1} << 32))
      fail("has chunks larger than HDF5 allows (is the file damaged?)");

  std::vector<Filter> filters;
  for (int i = 0, n = H5Pget_nfilters(plist); i < n; ++i) {
    unsigned flags = 0, config = 0;
    unsigned cd[8] = {};
    size_t ncd = 8;
    char name[64] = {};
    const H5Z_filter_t id = H5Pget_filter2(plist, static_cast<unsigned>(i), &flags, &ncd, cd, sizeof name, name, &config);
    if (id != H5Z_FILTER_DEFLATE && id != H5Z_FILTER_SHUFFLE && id != H5Z_FILTER_FLETCHER32)
      fail(fmt::format("is compressed with HDF5 filter {} ('{}'); onnxify decodes deflate (gzip), shuffle and "
                       "fletcher32: save it with one of those, or without compression",
                       static_cast<int>(id), std::string(name, strnlen(name, sizeof name))));
    filters.push_back({id, id == H5Z_FILTER_SHUFFLE && ncd >= 1 ? cd[0] : esize});
  }

  // Chunks the file never wrote hold the fill value (h5py's default: zero).
  std::vector<uint8_t> fill(esize, 0);
  H5D_fill_value_t defined = H5D_FILL_VALUE_UNDEFINED;
  if (H5Pfill_value_defined(plist, &defined) >= 0 && defined == H5D_FILL_VALUE_USER_DEFINED &&
      H5Pget_fill_value(plist, type, fill.data()) < 0)
    fail("has a fill value that cannot be read (is the file damaged?)");
  for (uint64_t at = 0; at + esize <= nbytes; at += esize) std::memcpy(out + at, fill.data(), esize);

  // libhdf5 1.10 wants the file dataspace itself here (H5S_ALL is refused).
  hsize_t nchunks = 0;
  if (H5Dget_num_chunks(ds, space, &nchunks) < 0)
    fail("has a chunk index that cannot be read (is the file damaged?)");
  std::vector<hsize_t> offset(shape.size());
  std::vector<uint8_t> raw, next;
  for (hsize_t k = 0; k < nchunks; ++k) {
    unsigned mask = 0;
    haddr_t addr = 0;
    hsize_t size = 0;
    if (H5Dget_chunk_info(ds, space, k, offset.data(), &mask, &addr, &size) < 0 || size > file_size)
      fail(fmt::format("has a damaged chunk record (chunk {})", k));
    for (int d = 0; d < rank; ++d)
      if (offset[d] % cdims[d] != 0 || offset[d] >= static_cast<hsize_t>(shape[d]))
        fail(fmt::format("has a chunk at an offset outside the dataset (chunk {})", k));
    // H5Dread_chunk finds the chunk again by its offset: in a damaged index that can be another record
    // than the one listed, so the buffer is sized by the same lookup and both sizes must agree.
    hsize_t lookup = 0;
    if (H5Dget_chunk_storage_size(ds, offset.data(), &lookup) < 0 || lookup != size)
      fail(fmt::format("has a damaged chunk index (chunk {})", k));
    raw.assign(size, 0);
    uint32_t read_mask = 0;
    if (H5Dread_chunk(ds, H5P_DEFAULT, offset.data(), &read_mask, raw.data()) < 0)
      fail(fmt::format("has a chunk that cannot be read (chunk {}; is the file damaged?)", k));
    // Filters were applied in pipeline order when writing: undo them last to first. A set bit in the
    // chunk's mask means that filter was skipped for this chunk.
    for (size_t i = filters.size(); i-- > 0;) {
      if (mask & (1u << i)) continue;
      switch (filters[i].id) {
        case H5Z_FILTER_FLETCHER32: {
          if (raw.size() < 4) fail(fmt::format("has a chunk too short for its checksum (chunk {})", k));
          const size_t len = raw.size() - 4;
          const uint32_t sum = fletcher32(raw.data(), len);
          uint32_t stored;
          std::memcpy(&stored, raw.data() + len, 4);  // written little-endian (x86-64 and aarch64 are)
          // Files from HDF5 before 1.6.3 hold the checksum with each 16-bit half byte-swapped.
          const uint32_t old = ((sum & 0x00ff00ffu) << 8) | ((sum & 0xff00ff00u) >> 8);
          if (stored != sum && stored != old) fail(fmt::format("fails its Fletcher-32 checksum (chunk {})", k));
          raw.resize(len);
          break;
        }
        case H5Z_FILTER_DEFLATE:
          if (!inflate_zlib(raw, chunk_bytes + 4 * filters.size(), next))
            fail(fmt::format("has a chunk whose deflate stream is damaged or larger than the chunk (chunk {})", k));
          raw.swap(next);
          break;
        case H5Z_FILTER_SHUFFLE:
          raw = unshuffle(raw, filters[i].shuffle_size);
          break;
      }
    }
    if (raw.size() != chunk_bytes)
      fail(fmt::format("has a chunk of {} bytes where the layout needs {} (chunk {}; is the file damaged?)",
                       raw.size(), chunk_bytes, k));
    // Copy the chunk's part inside the dataset, one run along the last dimension at a time.
    std::vector<hsize_t> extent(shape.size()), idx(shape.size(), 0);
    for (int d = 0; d < rank; ++d) extent[d] = std::min<hsize_t>(cdims[d], static_cast<hsize_t>(shape[d]) - offset[d]);
    const size_t run = extent[rank - 1] * esize;
    for (;;) {
      uint64_t src = 0, dst = 0;
      for (int d = 0; d < rank; ++d) {
        src = src * cdims[d] + idx[d];
        dst = dst * static_cast<uint64_t>(shape[d]) + offset[d] + idx[d];
      }
      std::memcpy(out + dst * esize, raw.data() + src * esize, run);
      int d = rank - 2;
      for (; d >= 0; --d) {
        if (++idx[d] < extent[d]) break;
        idx[d] = 0;
      }
      if (d < 0) break;
    }
  }

  // Elements are in the file's byte order: make them little-endian (an enum is h5py's 1-byte bool).
  if (esize > 1 && H5Tget_class(type) != H5T_ENUM && H5Tget_order(type) == H5T_ORDER_BE)
    for (uint64_t at = 0; at + esize <= nbytes; at += esize) std::reverse(out + at, out + at + esize);
}

}  // namespace onnxify::weights
