// Source text and positions shared by every stage that reports on user files.
//
// Positions follow CPython's AST conventions: 1-based lines, 0-based UTF-8 *byte* columns. The
// diagnostic printer converts to 1-based character columns for humans, as CPython's SyntaxError does.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace onnxify {

class SourceFile {
 public:
  SourceFile(std::string path, std::string text);

  // Reads a file; throws Diagnostic (no location) if it cannot be read.
  static std::shared_ptr<const SourceFile> load(const std::string& path);

  const std::string& path() const { return path_; }
  const std::string& text() const { return text_; }
  uint32_t line_count() const { return static_cast<uint32_t>(line_starts_.size()); }
  // The text of 1-based line `line`, without its line terminator.
  std::string_view line(uint32_t line) const;

 private:
  std::string path_;
  std::string text_;
  std::vector<uint32_t> line_starts_;
};

struct SourceLoc {
  uint32_t line = 0;  // 1-based; 0 means "unknown"
  uint32_t col = 0;   // 0-based UTF-8 byte offset in the line
  bool known() const { return line != 0; }
  friend bool operator==(const SourceLoc&, const SourceLoc&) = default;
};

// A half-open range [begin, end) in one file. `file` may be null for generated code.
struct SourceRange {
  std::shared_ptr<const SourceFile> file;
  SourceLoc begin;
  SourceLoc end;
  bool known() const { return file != nullptr && begin.known(); }
};

// 1-based column in characters (code points) of a 0-based byte offset within `line`.
uint32_t char_column(std::string_view line, uint32_t byte_col);

}  // namespace onnxify
