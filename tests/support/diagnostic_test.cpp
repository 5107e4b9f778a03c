#include "support/diagnostic.h"

#include <gtest/gtest.h>

namespace onnxify {
namespace {

std::shared_ptr<const SourceFile> file(std::string text) {
  return std::make_shared<SourceFile>("m.py", std::move(text));
}

TEST(Diagnostic, RendersLineAndCaretRange) {
  auto f = file("x = 1\ny = foo(x) + 2\n");
  auto d = Diagnostic::error("name 'foo' is not defined", {f, {2, 4}, {2, 7}}).with_help("did you mean 'for'?");
  EXPECT_EQ(d.render(),
            "m.py:2:5: error: name 'foo' is not defined\n"
            "y = foo(x) + 2\n"
            "    ^~~\n"
            "help: did you mean 'for'?\n");
}

TEST(Diagnostic, CaretFollowsTabsAndCountsCharactersNotBytes) {
  auto f = file("\tπ = é +\n");
  // 'é' starts at byte 6 (tab, 2-byte π, space, '=', space).
  auto d = Diagnostic::error("bad", {f, {1, 6}, {1, 8}});
  EXPECT_EQ(d.render(), "m.py:1:6: error: bad\n\tπ = é +\n\t    ^\n");
}

TEST(Diagnostic, NoteAndFileOnlyHeader) {
  auto f = file("import logging\nlogging.x(1)\n");
  auto d = Diagnostic::error("cannot use an unknown value here", {f, {2, 0}, {2, 12}})
               .with_note(Diagnostic::note("it was made here", {f, {1, 7}, {1, 14}}));
  EXPECT_EQ(d.render(),
            "m.py:2:1: error: cannot use an unknown value here\n"
            "logging.x(1)\n"
            "^~~~~~~~~~~~\n"
            "m.py:1:8: note: it was made here\n"
            "import logging\n"
            "       ^~~~~~~\n");
  EXPECT_EQ(Diagnostic::error("truncated zip").with_file("w.pt").render(), "w.pt: error: truncated zip\n");
  EXPECT_EQ(Diagnostic::error("no input").render(), "onnxify: error: no input\n");
}

TEST(Diagnostic, CaretAtEndOfLine) {
  auto f = file("def f(:\n");
  EXPECT_EQ(Diagnostic::error("x", {f, {1, 7}, {1, 7}}).render(), "m.py:1:8: error: x\ndef f(:\n       ^\n");
}

TEST(Diagnostic, LineTerminators) {
  SourceFile f("a.py", "a\r\nb\rc\nd");
  EXPECT_EQ(f.line_count(), 4u);
  EXPECT_EQ(f.line(2), "b");
  EXPECT_EQ(f.line(3), "c");
  EXPECT_EQ(f.line(4), "d");
  EXPECT_EQ(f.line(5), "");
}

TEST(Diagnostic, ClosestSpelling) {
  EXPECT_EQ(closest_spelling("Conv2D", {"Conv1d", "Conv2d", "Conv3d"}), "Conv2d");
  EXPECT_EQ(closest_spelling("resnt18", {"ResNet", "resnet18", "vgg"}), "resnet18");
  EXPECT_EQ(closest_spelling("zzz", {"Linear", "ReLU"}), "");
}

TEST(Diagnostic, ListCollectsAll) {
  DiagnosticList l;
  EXPECT_FALSE(l.has_errors());
  l.add(Diagnostic::warning("w"));
  EXPECT_FALSE(l.has_errors());
  l.add(Diagnostic::error("e"));
  EXPECT_TRUE(l.has_errors());
  EXPECT_EQ(l.render(), "onnxify: warning: w\nonnxify: error: e\n");
}

}  // namespace
}  // namespace onnxify
