// Status: how passes and the ONNX writer report failure (DESIGN.md: they return, they do not throw).
#pragma once

#include <optional>
#include <utility>

#include "support/diagnostic.h"

namespace onnxify {

class [[nodiscard]] Status {
 public:
  static Status ok() { return Status(); }
  Status(Diagnostic error) : error_(std::move(error)) {}  // NOLINT: implicit by design
  static Status error(std::string message, SourceRange range = {}) {
    return Status(Diagnostic::error(std::move(message), std::move(range)));
  }

  bool is_ok() const { return !error_.has_value(); }
  explicit operator bool() const { return is_ok(); }
  const Diagnostic& diagnostic() const { return *error_; }

 private:
  Status() = default;
  std::optional<Diagnostic> error_;
};

}  // namespace onnxify
