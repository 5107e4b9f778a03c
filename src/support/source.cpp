#include "support/source.h"

#include <fstream>
#include <sstream>

#include "support/diagnostic.h"

namespace onnxify {

SourceFile::SourceFile(std::string path, std::string text) : path_(std::move(path)), text_(std::move(text)) {
  // Python's line terminators: \n, \r\n and a lone \r.
  line_starts_.push_back(0);
  for (size_t i = 0; i < text_.size(); ++i) {
    char c = text_[i];
    if (c == '\r' && i + 1 < text_.size() && text_[i + 1] == '\n') ++i;
    if (c == '\n' || c == '\r') {
      if (i + 1 < text_.size()) line_starts_.push_back(static_cast<uint32_t>(i + 1));
    }
  }
}

std::shared_ptr<const SourceFile> SourceFile::load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Diagnostic::error(fmt::format("cannot read '{}': no such file or not readable", path));
  std::ostringstream ss;
  ss << in.rdbuf();
  return std::make_shared<SourceFile>(path, ss.str());
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
