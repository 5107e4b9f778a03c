// The one diagnostic format (DESIGN.md conventions):
//
//   file.py:12:9: error: message
//       y = self.conv(x) +
//           ^~~~~~~~~~~~
//   file.py:3:1: note: secondary location (e.g. where a poison value was made)
//   help: what to do about it
//
// Columns in the header are 1-based characters. Without a location the header is
// "onnxify: error: message" (or "file: error: message" when only the file is known).
// Syntax and eval throw a Diagnostic; passes and the writer return a Status (status.h);
// only src/cli/ turns either into an exit code.
#pragma once

#include <fmt/core.h>

#include <exception>
#include <string>
#include <vector>

#include "support/source.h"

namespace onnxify {

enum class Severity { Error, Warning, Note };

// "error", "warning" or "note": the word the header line and the Python API use.
const char* severity_name(Severity s);

class Diagnostic : public std::exception {
 public:
  Diagnostic() = default;
  Diagnostic(Severity severity, std::string message, SourceRange range = {});

  static Diagnostic error(std::string message, SourceRange range = {}) {
    return Diagnostic(Severity::Error, std::move(message), std::move(range));
  }
  static Diagnostic warning(std::string message, SourceRange range = {}) {
    return Diagnostic(Severity::Warning, std::move(message), std::move(range));
  }
  static Diagnostic note(std::string message, SourceRange range = {}) {
    return Diagnostic(Severity::Note, std::move(message), std::move(range));
  }

  // A header used when there is no source range, e.g. "ckpt.pt" for checkpoint errors.
  Diagnostic& with_file(std::string file) & { file_ = std::move(file); return *this; }
  Diagnostic&& with_file(std::string file) && { file_ = std::move(file); return std::move(*this); }
  Diagnostic& with_note(Diagnostic note) & { notes_.push_back(std::move(note)); return *this; }
  Diagnostic&& with_note(Diagnostic note) && { notes_.push_back(std::move(note)); return std::move(*this); }
  Diagnostic& with_help(std::string help) & { help_ = std::move(help); return *this; }
  Diagnostic&& with_help(std::string help) && { help_ = std::move(help); return std::move(*this); }

  Severity severity() const { return severity_; }
  const std::string& message() const { return message_; }
  const SourceRange& range() const { return range_; }
  const std::vector<Diagnostic>& notes() const { return notes_; }
  const std::string& help() const { return help_; }
  // The file given by with_file() (a checkpoint's name), "" when none.
  const std::string& file_name() const { return file_; }

  // The full text in the one format, ending with a newline.
  std::string render() const;
  // The first line only ("file:line:col: error: message"), for one-line reports.
  std::string header() const;
  const char* what() const noexcept override;

 private:
  Severity severity_ = Severity::Error;
  std::string message_;
  SourceRange range_;
  std::string file_;
  std::vector<Diagnostic> notes_;
  std::string help_;
  mutable std::string what_;
};

// Several diagnostics from one run ("one run reports every unsupported op").
class DiagnosticList : public std::exception {
 public:
  void add(Diagnostic d) { items_.push_back(std::move(d)); }
  bool empty() const { return items_.empty(); }
  bool has_errors() const;
  const std::vector<Diagnostic>& items() const { return items_; }
  std::string render() const;
  const char* what() const noexcept override;

 private:
  std::vector<Diagnostic> items_;
  mutable std::string what_;
};

// Spelling suggestion for unknown names: the closest candidate by edit distance, or "" if none is
// close enough (the ninja SpellcheckString rule: distance <= max(1, len/3)).
std::string closest_spelling(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace onnxify
