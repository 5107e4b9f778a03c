// The parser's public API (syntax.h, ast.h). Expected dumps are CPython 3.11's ast.dump output for
// the same sources (produced with /usr/bin/python3; the oracle tests check whole corpora the same way).
#include <gtest/gtest.h>

#include <functional>

#include "syntax/syntax.h"

namespace onnxify::syntax {
namespace {

using namespace ast;

ParsedModule parse_text(std::string text, Mode mode = Mode::Exec) {
  return parse(std::make_shared<SourceFile>("t.py", std::move(text)), mode);
}

TEST(Parser, TreeIsTypedAndWalkable) {
  ParsedModule m = parse_text("def f(a, *b, c=1):\n    return a + b[0]\n");
  const Module& mod = m.module();
  ASSERT_EQ(mod.body.size(), 1u);
  const stmt* s = mod.body[0];
  EXPECT_TRUE(s->is<stmt>());
  EXPECT_FALSE(s->is<expr>());
  const auto* f = s->as<FunctionDef>();
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->name, "f");
  EXPECT_EQ(f->args->args.size(), 1u);
  EXPECT_EQ(f->args->vararg->arg, "b");
  ASSERT_EQ(f->args->kwonlyargs.size(), 1u);
  ASSERT_EQ(f->args->kw_defaults.size(), 1u);
  EXPECT_EQ(f->args->kw_defaults[0]->cast<Constant>().value.int_value, 1);
  const auto& ret = f->body[0]->cast<Return>();
  const auto& add = ret.value->cast<BinOp>();
  EXPECT_EQ(add.op, OperatorKind::Add);
  EXPECT_EQ(add.right->node_kind, NodeKind::Subscript);
  // visit() hands over the concrete class; for_each_child() walks every child node.
  std::string kinds;
  visit(*ret.value, [&](const auto& n) { kinds = name(n.kKind); });
  EXPECT_EQ(kinds, "BinOp");
  int count = 0;
  std::function<void(const Node*)> walk = [&](const Node* n) {
    ++count;
    for_each_child(*n, walk);
  };
  walk(&mod);
  // Module, FunctionDef, arguments, arg a, arg b, arg c, Constant 1, Return, BinOp, Name a,
  // Subscript, Name b, Constant 0
  EXPECT_EQ(count, 13);
}

TEST(Parser, PositionsFollowCPython) {
  // CPython: Expression(body=BinOp(left=Name(id='a', ..., 1, 0, 1, 1), op=Add(),
  //   right=BinOp(left=Name(id='b', ..., 1, 4, 1, 5), op=Mult(), right=Name(id='c', ..., 1, 8, 1, 9),
  //   lineno=1, col_offset=4, end_lineno=1, end_col_offset=9), lineno=1, col_offset=0, end_lineno=1,
  //   end_col_offset=9))
  ParsedModule m = parse_text("a + b * c", Mode::Eval);
  const auto& b = m.expression().body->cast<BinOp>();
  EXPECT_EQ(b.col_offset, 0u);
  EXPECT_EQ(b.end_col_offset, 9u);
  EXPECT_EQ(b.right->col_offset, 4u);
  EXPECT_EQ(b.right->end_col_offset, 9u);
  SourceRange r = m.range(*b.right);
  EXPECT_EQ(r.begin.col, 4u);
  EXPECT_EQ(r.file->path(), "t.py");
}

TEST(Parser, ConstantsAndReprs) {
  ParsedModule m = parse_text(
      "x = ('a', \"b'\", 'c\"', '\\'\"', '\\n\\t\\r\\x00\\x7f', "
      "'é\\xa0\\u200b\\ud800\\U0001f600\\U000e0001', "
      "b'\\x00\\xff\\'', b\"'\", 1e16, 1e15, 0.1, 1e-5, 1.5e300, 1e309, 2j, 1.5j, 1e16j, 0j, "
      "0xffffffffffffffffff, "
      "9223372036854775807, 9223372036854775808, ..., None, True)");
  EXPECT_EQ(
      dump(m.root()),
      "Module(body=[Assign(targets=[Name(id='x', ctx=Store())], value=Tuple(elts=[Constant(value='a'), "
      "Constant(value=\"b'\"), Constant(value='c\"'), Constant(value='\\'\"'), "
      "Constant(value='\\n\\t\\r\\x00\\x7f'), "
      "Constant(value='é\\xa0\\u200b\\ud800😀\\U000e0001'), Constant(value=b\"\\x00\\xff'\"), "
      "Constant(value=b\"'\"), Constant(value=1e+16), Constant(value=1000000000000000.0), "
      "Constant(value=0.1), "
      "Constant(value=1e-05), Constant(value=1.5e+300), Constant(value=inf), Constant(value=2j), "
      "Constant(value=1.5j), Constant(value=1e+16j), Constant(value=0j), "
      "Constant(value=4722366482869645213695), "
      "Constant(value=9223372036854775807), Constant(value=9223372036854775808), Constant(value=Ellipsis), "
      "Constant(value=None), Constant(value=True)], ctx=Load()))], type_ignores=[])");
  const auto& elts = m.module().body[0]->cast<Assign>().value->cast<Tuple>().elts;
  const ConstantValue& big = elts[18]->cast<Constant>().value;
  EXPECT_EQ(big.type, ConstKind::Int);
  EXPECT_FALSE(big.int_fits);
  EXPECT_EQ(big.text, "4722366482869645213695");
  EXPECT_TRUE(elts[19]->cast<Constant>().value.int_fits);
  EXPECT_EQ(elts[14]->cast<Constant>().value.type, ConstKind::Complex);
  // An undecorated literal is a view of the source; an escaped one is decoded into the arena.
  const std::string& src = m.file()->text();
  std::string_view a = elts[0]->cast<Constant>().value.text;
  EXPECT_TRUE(a.data() >= src.data() && a.data() < src.data() + src.size());
}

TEST(Parser, SourceDecodingLikeCPython) {
  // CPython: value=Constant(value='a\nb', lineno=1, col_offset=4, end_lineno=2, end_col_offset=4)
  ParsedModule crlf = parse_text("x = '''a\r\nb'''\r\ny = 1\r\n");
  const auto& c = crlf.module().body[0]->cast<Assign>().value->cast<Constant>();
  EXPECT_EQ(c.value.text, "a\nb");
  EXPECT_EQ(c.end_lineno, 2u);
  EXPECT_EQ(c.end_col_offset, 4u);
  EXPECT_EQ(crlf.module().body[1]->lineno, 3u);
  // A latin-1 declaration: positions refer to the UTF-8 transcoding, which file() holds.
  ParsedModule latin = parse_text("# -*- coding: latin-1 -*-\nx = '\xe9'\n");
  EXPECT_EQ(dump(latin.root()),
            "Module(body=[Assign(targets=[Name(id='x', ctx=Store())], value=Constant(value='é'))], "
            "type_ignores=[])");
  EXPECT_NE(latin.file()->text().find("\xc3\xa9"), std::string::npos);
  // Non-ASCII names are NFKC-normalized.
  ParsedModule nfkc = parse_text("\xef\xac\x81 = 1");  // U+FB01 LATIN SMALL LIGATURE FI
  EXPECT_EQ(nfkc.module().body[0]->cast<Assign>().targets[0]->cast<Name>().id, "fi");
  // BOM, no final newline.
  ParsedModule bom = parse_text("\xef\xbb\xbfx = 1");
  EXPECT_EQ(bom.module().body[0]->col_offset, 0u);
}

TEST(Parser, ErrorsAreDiagnostics) {
  try {
    parse_text("x = (1,\n     2]\n");
    FAIL();
  } catch (const Diagnostic& d) {
    EXPECT_EQ(d.header(),
              "t.py:2:7: error: closing parenthesis ']' does not match opening parenthesis '(' on line 1");
  }
  try {
    parse_text(std::string("x = 1\0\n", 7));
    FAIL();
  } catch (const Diagnostic& d) {
    EXPECT_EQ(d.message(), "source code cannot contain null bytes");
  }
}

TEST(Parser, NestingIsBounded) {
  // Deep but allowed, and far too deep: a clear error, never a stack overflow.
  EXPECT_NO_THROW(parse_text("x = " + std::string(2000, '-') + "1\n"));
  for (std::string deep : {"x = " + std::string(5000, '-') + "1\n", "x = " + std::string(5000, '~') + "1\n",
                           "x = " +
                               [] {
                                 std::string s;
                                 for (int i = 0; i < 5000; ++i) s += "not ";
                                 return s;
                               }() +
                               "1\n",
                           "x = " +
                               [] {
                                 std::string s;
                                 for (int i = 0; i < 5000; ++i) s += "lambda: ";
                                 return s;
                               }() +
                               "1\n",
                           "x = a" +
                               [] {
                                 std::string s;
                                 for (int i = 0; i < 5000; ++i) s += ".b";
                                 return s;
                               }() +
                               "\n",
                           "x = 1" +
                               [] {
                                 std::string s;
                                 for (int i = 0; i < 5000; ++i) s += " + 1";
                                 return s;
                               }() +
                               "\n",
                           [] {
                             std::string s = "if x: pass\n";
                             for (int i = 0; i < 5000; ++i) s += "elif x: pass\n";
                             return s;
                           }()}) {
    try {
      parse_text(deep);
      ADD_FAILURE() << "parsed " << deep.substr(0, 20);
    } catch (const Diagnostic& d) {
      EXPECT_NE(d.message().find("too deeply nested"), std::string::npos) << d.message();
    }
  }
}

TEST(Parser, EmptyModules) {
  for (const char* text : {"", "\n", "# only a comment", "\n\n   \n\t# x\n\f\n"}) {
    ParsedModule m = parse_text(text);
    EXPECT_EQ(dump(m.root()), "Module(body=[], type_ignores=[])") << text;
  }
}

TEST(Dump, IncludeAttributes) {
  // CPython: ast.dump(ast.parse('pass'), include_attributes=True)
  ParsedModule m = parse_text("pass");
  EXPECT_EQ(dump(m.root(), {.include_attributes = true}),
            "Module(body=[Pass(lineno=1, col_offset=0, end_lineno=1, end_col_offset=4)], type_ignores=[])");
}

}  // namespace
}  // namespace onnxify::syntax
