// Whole reads and writes on file descriptors (files, pipes, sockets): a read or write may move fewer
// bytes than asked or be interrupted by a signal (EINTR); these go on until done.
#pragma once

#include <cstddef>
#include <string>

namespace onnxify {

// Writes all n bytes; false on an error (errno says which).
bool write_fully(int fd, const void* data, size_t n);
// Reads up to n bytes, stopping early only at the end of the file or on an error (then *error, when
// given, is errno; else 0). The count read.
size_t read_fully(int fd, void* data, size_t n, int* error = nullptr);
// Appends everything up to the end of the file; false on an error.
bool read_to_end(int fd, std::string* out);

}  // namespace onnxify
