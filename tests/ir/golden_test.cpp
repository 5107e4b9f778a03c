// Golden tests for the IR text form and the verifier's messages (the messages are the spec of our
// own diagnostics, so exact text is the right check):
//   tests/ir/roundtrip/*.ir      print(parse(text)) == text, byte for byte
//   tests/ir/parse_errors/*.ir   the parser's diagnostic == the .err file next to it
//   tests/ir/verify/*.ir         verify_all(parse(text)) == the .err file (empty when valid);
//                                a first line `// opset: N` selects the opset
// Set ONNXIFY_UPDATE_GOLDEN=1 to rewrite the .err files after a deliberate change (then review the
// diff: never accept an expected file without reading it).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "ir/ir.h"

namespace onnxify::ir {
namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Relative paths in the IR files (ref, loc) are relative to the repository root.
std::vector<fs::path> files(const std::string& dir) {
  EXPECT_EQ(::chdir(ONNXIFY_SOURCE_DIR), 0);
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(fs::path("tests/ir") / dir))
    if (e.path().extension() == ".ir") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  EXPECT_FALSE(out.empty()) << "no golden files in tests/ir/" << dir;
  return out;
}

void expect_golden(const fs::path& ir, const std::string& got) {
  fs::path err = fs::path(ir).replace_extension(".err");
  if (std::getenv("ONNXIFY_UPDATE_GOLDEN")) {
    std::ofstream(err, std::ios::binary) << got;
    return;
  }
  ASSERT_TRUE(fs::exists(err)) << "missing " << err;
  EXPECT_EQ(got, read(err)) << "for " << ir;
}

TEST(IrGolden, RoundTrip) {
  for (const fs::path& p : files("roundtrip")) {
    SCOPED_TRACE(p.string());
    std::string text = read(p);
    std::unique_ptr<Graph> g;
    try {
      g = parse(SourceFile::load(p.string()));
    } catch (const Diagnostic& d) {
      FAIL() << d.render();
    }
    std::string printed = print(*g);
    EXPECT_EQ(printed, text);
    // And once more from the printed text (idempotence).
    EXPECT_EQ(print(*parse(printed, p.string())), printed);
  }
}

TEST(IrGolden, ParseErrors) {
  for (const fs::path& p : files("parse_errors")) {
    SCOPED_TRACE(p.string());
    std::string got;
    try {
      parse(SourceFile::load(p.string()));
      got = "(parsed without error)\n";
    } catch (const Diagnostic& d) {
      got = d.render();
    }
    expect_golden(p, got);
  }
}

TEST(IrGolden, Verify) {
  for (const fs::path& p : files("verify")) {
    SCOPED_TRACE(p.string());
    std::string text = read(p);
    VerifyOptions opts;
    if (text.rfind("// opset: ", 0) == 0) opts.opset = std::stoi(text.substr(10));
    std::string got;
    try {
      got = verify_all(*parse(SourceFile::load(p.string())), opts).render();
    } catch (const Diagnostic& d) {
      got = "(parse error) " + d.render();
    }
    expect_golden(p, got);
  }
}

}  // namespace
}  // namespace onnxify::ir
