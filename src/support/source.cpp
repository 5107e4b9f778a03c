#include "support/source.h"

#include <sys/stat.h>

#include <cstdio>
#include <cstring>

#include "support/diagnostic.h"

namespace onnxify {

SourceFile::SourceFile(std::string path, std::string text) : path_(std::move(path)), text_(std::move(text)) {
  // Python's line terminators: \n, \r\n and a lone \r. Most files have only \n: memchr finds
  // those a word at a time (every module an import reads passes through here).
  line_starts_.reserve(text_.size() / 32 + 1);
  line_starts_.push_back(0);
  const char* data = text_.data();
  const size_t size = text_.size();
  if (std::memchr(data, '\r', size) == nullptr) {
    for (const char* p = data; (p = static_cast<const char*>(std::memchr(p, '\n', data + size - p)));) {
      ++p;
      if (p == data + size) break;
      line_starts_.push_back(static_cast<uint32_t>(p - data));
    }
    return;
  }
  for (size_t i = 0; i < size; ++i) {
    char c = data[i];
    if (c == '\r' && i + 1 < size && data[i + 1] == '\n') ++i;
    if (c == '\n' || c == '\r') {
      if (i + 1 < size) line_starts_.push_back(static_cast<uint32_t>(i + 1));
    }
  }
}

std::shared_ptr<const SourceFile> SourceFile::load(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) throw Diagnostic::error(fmt::format("cannot read '{}': no such file or not readable", path));
  // One read into a buffer of the file's size (no stream copies); the loop covers files that grow
  // and files whose size stat does not know. A read error keeps what was read, as the stream did.
  std::string text;
  struct stat st;
  bool have_stat = ::fstat(fileno(f), &st) == 0;
  // fopen succeeds on a directory on Linux and the read then fails: say what it is.
  if (have_stat && S_ISDIR(st.st_mode)) {
    std::fclose(f);
    throw Diagnostic::error(fmt::format("cannot read '{}': it is a directory; name a Python source file", path));
  }
  size_t want = have_stat && st.st_size > 0 ? static_cast<size_t>(st.st_size) + 1 : 4096;
  size_t n = 0;
  for (;;) {
    text.resize(n + want);
    size_t got = std::fread(text.data() + n, 1, want, f);
    n += got;
    if (got < want) break;
    want = n;
  }
  std::fclose(f);
  text.resize(n);
  return std::make_shared<SourceFile>(path, std::move(text));
}

std::string_view SourceFile::line(uint32_t line) const {
  if (line == 0 || line > line_starts_.size()) return {};
  size_t begin = line_starts_[line - 1];
  size_t end = begin;
  while (end < text_.size() && text_[end] != '\n' && text_[end] != '\r') ++end;
  return std::string_view(text_).substr(begin, end - begin);
}

uint32_t char_column(std::string_view line, uint32_t byte_col) {
  uint32_t chars = 0;
  for (uint32_t i = 0; i < byte_col && i < line.size(); ++i)
    if ((static_cast<unsigned char>(line[i]) & 0xC0) != 0x80) ++chars;
  if (byte_col > line.size()) chars += byte_col - static_cast<uint32_t>(line.size());
  return chars + 1;
}

}  // namespace onnxify
