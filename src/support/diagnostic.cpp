#include "support/diagnostic.h"

#include <algorithm>

namespace onnxify {

const char* severity_name(Severity s) {
  switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Note: return "note";
  }
  return "error";
}

namespace {

// The caret line under `text`: tabs copied from the source so the caret lines up in any terminal,
// one '^' at the start and '~' under the rest of the range on that line.
std::string caret_line(std::string_view text, uint32_t begin_byte, uint32_t end_byte) {
  std::string out;
  uint32_t i = 0;
  for (; i < begin_byte && i < text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if ((c & 0xC0) == 0x80) continue;  // continuation byte of a multi-byte character
    out += (c == '\t') ? '\t' : ' ';
  }
  for (; i < begin_byte; ++i) out += ' ';  // position past the end of the line (e.g. at EOF)
  out += '^';
  uint32_t stop = std::min<uint32_t>(end_byte, static_cast<uint32_t>(text.size()));
  bool first = true;
  for (uint32_t j = begin_byte; j < stop; ++j) {
    unsigned char c = static_cast<unsigned char>(text[j]);
    if ((c & 0xC0) == 0x80) continue;
    if (first) { first = false; continue; }
    out += '~';
  }
  return out;
}

}  // namespace

Diagnostic::Diagnostic(Severity severity, std::string message, SourceRange range)
    : severity_(severity), message_(std::move(message)), range_(std::move(range)) {}

std::string Diagnostic::header() const {
  if (range_.known()) {
    std::string_view text = range_.file->line(range_.begin.line);
    return fmt::format("{}:{}:{}: {}: {}", range_.file->path(), range_.begin.line,
                       char_column(text, range_.begin.col), severity_name(severity_), message_);
  }
  std::string where = !file_.empty() ? file_ : range_.file ? range_.file->path() : "onnxify";
  return fmt::format("{}: {}: {}", where, severity_name(severity_), message_);
}

std::string Diagnostic::render() const {
  std::string out = header();
  out += '\n';
  if (range_.known()) {
    std::string_view text = range_.file->line(range_.begin.line);
    uint32_t end = range_.end.line == range_.begin.line ? range_.end.col : static_cast<uint32_t>(text.size());
    out.append(text);
    out += '\n';
    out += caret_line(text, range_.begin.col, std::max(end, range_.begin.col + 1));
    out += '\n';
  }
  for (const Diagnostic& n : notes_) out += n.render();
  if (!help_.empty()) out += fmt::format("help: {}\n", help_);
  return out;
}

const char* Diagnostic::what() const noexcept {
  try {
    what_ = render();
  } catch (...) {
    return message_.c_str();
  }
  return what_.c_str();
}

bool DiagnosticList::has_errors() const {
  return std::any_of(items_.begin(), items_.end(),
                     [](const Diagnostic& d) { return d.severity() == Severity::Error; });
}

std::string DiagnosticList::render() const {
  std::string out;
  for (const Diagnostic& d : items_) out += d.render();
  return out;
}

const char* DiagnosticList::what() const noexcept {
  try {
    what_ = render();
  } catch (...) {
    return "diagnostics";
  }
  return what_.c_str();
}

std::string closest_spelling(const std::string& word, const std::vector<std::string>& candidates) {
  const size_t max_distance = std::max<size_t>(1, word.size() / 3);
  std::string best;
  size_t best_distance = max_distance + 1;
  std::vector<size_t> row;
  for (const std::string& cand : candidates) {
    // Levenshtein distance, one row at a time.
    row.resize(cand.size() + 1);
    for (size_t j = 0; j <= cand.size(); ++j) row[j] = j;
    for (size_t i = 1; i <= word.size(); ++i) {
      size_t diag = row[0];
      row[0] = i;
      for (size_t j = 1; j <= cand.size(); ++j) {
        size_t up = row[j];
        row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (word[i - 1] == cand[j - 1] ? 0 : 1)});
        diag = up;
      }
    }
    if (row[cand.size()] < best_distance) {
      best_distance = row[cand.size()];
      best = cand;
    }
  }
  return best_distance <= max_distance ? best : std::string();
}

}  // namespace onnxify
