// Whole reads and writes (fd_io.h).
#include "support/fd_io.h"

#include <unistd.h>

#include <cerrno>

namespace onnxify {

bool write_fully(int fd, const void* data, size_t n) {
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    ssize_t w = ::write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) return false;
    if (w == 0) {
      errno = EIO;  // nothing written and no error: never for files, pipes or sockets
      return false;
    }
    p += w;
    n -= static_cast<size_t>(w);
  }
  return true;
}

size_t read_fully(int fd, void* data, size_t n, int* error) {
  char* p = static_cast<char*>(data);
  size_t got = 0;
  if (error) *error = 0;
  while (got < n) {
    ssize_t r = ::read(fd, p + got, n - got);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0 && error) *error = errno;
    if (r <= 0) break;
    got += static_cast<size_t>(r);
  }
  return got;
}

bool read_to_end(int fd, std::string* out) {
  char buf[1 << 16];
  while (true) {
    int error = 0;
    size_t got = read_fully(fd, buf, sizeof buf, &error);
    out->append(buf, got);
    if (error) return false;
    if (got < sizeof buf) return true;
  }
}

}  // namespace onnxify
