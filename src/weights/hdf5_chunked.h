// Chunked HDF5 datasets assembled from their raw chunks (src/weights/hdf5_chunked.cpp).
#pragma once

#include <hdf5.h>

#include <cstdint>
#include <string>
#include <vector>

namespace onnxify::weights {

// Reads the chunked dataset `ds` (file dataspace `space`, creation list `plist`, file type `type`,
// dims `shape`) into `out`, `nbytes` bytes, as little-endian elements. Throws a Diagnostic naming
// `path` for a damaged file or a filter other than deflate, shuffle and fletcher32.
void read_chunked(hid_t ds, hid_t space, hid_t plist, hid_t type, const std::vector<int64_t>& shape, uint8_t* out,
                  uint64_t nbytes, uint64_t file_size, const std::string& path);

}  // namespace onnxify::weights
