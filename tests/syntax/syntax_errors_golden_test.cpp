// The exact text of onnxify's syntax errors: data/syntax_errors.txt holds each source and its
// expected diagnostic (syntax_errors_test.py checks the messages against CPython 3.11).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "syntax/syntax.h"

namespace onnxify::syntax {
namespace {

struct Case {
  std::string name, source, expected;
};

std::vector<Case> read_cases() {
  std::ifstream in(ONNXIFY_SOURCE_DIR "/tests/syntax/data/syntax_errors.txt", std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  std::vector<Case> cases;
  const std::string sep = "\n### ", marker = "--- expected\n";
  for (size_t at = text.find(sep); at != std::string::npos;) {
    size_t next = text.find(sep, at + 1);
    std::string block =
        text.substr(at + sep.size(), next == std::string::npos ? std::string::npos : next - at - sep.size());
    size_t eol = block.find('\n');
    size_t m = block.find(marker);
    Case c{block.substr(0, eol), block.substr(eol + 1, m - eol - 1), block.substr(m + marker.size())};
    while (c.expected.size() > 1 && c.expected[c.expected.size() - 2] == '\n') c.expected.pop_back();
    cases.push_back(std::move(c));
    at = next;
  }
  return cases;
}

TEST(SyntaxErrors, Golden) {
  std::vector<Case> cases = read_cases();
  ASSERT_GE(cases.size(), 30u);
  for (const Case& c : cases) {
    auto file = std::make_shared<SourceFile>("case.py", c.source);
    try {
      ParsedModule m = parse_module(file);
      ADD_FAILURE() << c.name << ": parsed without error";
    } catch (const Diagnostic& d) {
      EXPECT_EQ(d.render(), c.expected) << c.name;
    }
  }
}

}  // namespace
}  // namespace onnxify::syntax
