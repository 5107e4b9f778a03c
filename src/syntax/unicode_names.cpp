#include "syntax/unicode.h"

namespace onnxify::syntax::unicode {

bool lookup_name(std::string_view name, char32_t* cp) {
  (void)name;
  (void)cp;
  return false;
}

}  // namespace onnxify::syntax::unicode
