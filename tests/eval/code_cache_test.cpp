// The compiled-module cache (src/eval/code_cache.h): entries are written, read back instead of
// compiling, and a corrupt, truncated or foreign entry is detected and written again. The oracle
// for what a program prints is CPython 3.11 (the expected text below is its output of PROGRAM);
// tests/eval/run_programs.py runs every conformance program from the cache as well.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <algorithm>
#include <chrono>

#include "eval/code_cache.h"
#include "eval/code_serial.h"
#include "eval/compile.h"
#include "eval/eval.h"

namespace onnxify::eval {
namespace {

namespace fs = std::filesystem;

// Covers every kind of constant the form encodes, a constant frozenset (its iteration order is
// CPython's), closures, a class with zero-argument super(), comprehensions, match and f-strings.
constexpr const char* kProgram = R"PY(
def outer(a, *args, k=3, **kw):
    def inner(x):
        return x + a + k
    return inner
print(outer(1)(2), (1, 2.5, 3j, b"by", "s" + "t", ...), -7, 2**62)
print(list({"b", "a", "c", "d"}), {x * 2 for x in range(3)}, [y for y in "ab" if y != "b"])
class Base:
    def hello(self): return "base"
class Child(Base):
    """doc"""
    def hello(self): return "child+" + super().hello()
print(Child().hello(), Child.__doc__, Child.hello.__qualname__)
match (1, [2, 3]):
    case (1, [2, *rest]) if rest: print("matched", rest)
    case _: print("no")
name = "x"
print(f"{name!r:>5}|{3.14159:.2f}", {k: v for k, v in zip("ab", (1, 2))})
try:
    raise KeyError("k")
except KeyError as e:
    print("caught", repr(e))
)PY";
constexpr const char* kExpected =
    "6 (1, 2.5, 3j, b'by', 'st', Ellipsis) -7 4611686018427387904\n"
    "['d', 'c', 'a', 'b'] {0, 2, 4} ['a']\n"
    "child+base doc Child.hello\n"
    "matched [3]\n"
    "  'x'|3.14 {'a': 1, 'b': 2}\n"
    "caught KeyError('k')\n";

class CodeCache : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/onnxify-cache-test-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    root = tmpl;
    cache = root + "/cache";
    script = root + "/prog.py";
    std::ofstream(script) << kProgram;
  }
  void TearDown() override { fs::remove_all(root); }

  // Runs the script (or `path`) with the cache in `dir`; what it printed.
  std::string run(const std::string& dir) { return run_file(script, dir); }
  static std::string run_file(const std::string& path, const std::string& dir) {
    Options o;
    o.code_cache = dir;
    std::string out;
    o.out = [&out](std::string_view s) { out += s; };
    Interp I(o);
    run_main_script(I, path);
    return out;
  }
  std::string entry() {
    return code_cache_entry(cache, *SourceFile::load(script), "__main__");
  }
  static std::string slurp(const std::string& p) {
    std::ifstream f(p, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
  }
  static void spit(const std::string& p, const std::string& bytes) {
    std::ofstream(p, std::ios::binary | std::ios::trunc) << bytes;
  }

  std::string root, cache, script;
};

TEST_F(CodeCache, WritesAnEntryAndReadsItBack) {
  EXPECT_EQ(run(""), kExpected);
  EXPECT_FALSE(fs::exists(cache));  // no folder, no cache
  EXPECT_EQ(run(cache), kExpected);
  ASSERT_FALSE(entry().empty()) << "the binary has no build ID";
  ASSERT_TRUE(fs::exists(entry()));
  std::string written = slurp(entry());
  EXPECT_EQ(run(cache), kExpected);
  EXPECT_EQ(slurp(entry()), written);
}

// The run reads the entry instead of compiling: an entry holding another program's code (written
// under this source's key, with a valid checksum) is what runs. So entries are trusted as far as
// their key: the folder is the user's own (mode 0700), like __pycache__.
TEST_F(CodeCache, AnEntryIsReadInsteadOfCompiling) {
  std::string other = root + "/other.py";
  std::ofstream(other) << "print('from the cache')\n";
  EXPECT_EQ(run(cache), kExpected);  // writes this source's entry
  EXPECT_EQ(run_file(other, cache), "from the cache\n");  // and the other's
  // This key's header with the other entry's length, checksum and payload.
  std::string forged = slurp(entry()).substr(0, 24) +
                       slurp(code_cache_entry(cache, *SourceFile::load(other), "__main__")).substr(24);
  spit(entry(), forged);
  EXPECT_EQ(run(cache), "from the cache\n");
}

TEST_F(CodeCache, CorruptTruncatedOrForeignEntriesAreRebuilt) {
  EXPECT_EQ(run(cache), kExpected);
  const std::string good = slurp(entry());
  std::mt19937 rng(7);
  std::vector<std::string> bad;
  for (int i = 0; i < 24; ++i) {  // one byte changed anywhere: header, key, length, checksum, payload
    std::string b = good;
    size_t at = std::uniform_int_distribution<size_t>(0, b.size() - 1)(rng);
    b[at] = static_cast<char>(b[at] ^ (1 + std::uniform_int_distribution<int>(0, 254)(rng)));
    bad.push_back(b);
  }
  for (size_t n : {size_t{0}, size_t{7}, size_t{40}, good.size() / 2, good.size() - 1}) bad.push_back(good.substr(0, n));
  bad.push_back(good + "x");  // bytes after the payload
  {
    // An entry of another source put under this name (a foreign entry): its key differs.
    std::string other = root + "/other.py";
    std::ofstream(other) << "print(1)\n";
    EXPECT_EQ(run_file(other, cache), "1\n");
    bad.push_back(slurp(code_cache_entry(cache, *SourceFile::load(other), "__main__")));
  }
  for (size_t i = 0; i < bad.size(); ++i) {
    spit(entry(), bad[i]);
    EXPECT_EQ(run(cache), kExpected) << "bad entry " << i;
    EXPECT_EQ(slurp(entry()), good) << "bad entry " << i << " was not written again";
  }
}

TEST_F(CodeCache, AnUnwritableFolderOnlyCostsCompiling) {
  std::ofstream(cache) << "a file where the folder would be\n";
  EXPECT_EQ(run(cache), kExpected);
  EXPECT_EQ(run(cache + "/sub"), kExpected);
}

// Each build keeps its entries in its own folder; when a build makes its folder, only the newest
// four build folders stay (older builds' entries are never read again).
TEST_F(CodeCache, OlderBuildsEntriesAreRemoved) {
  fs::create_directories(cache + "/code");
  auto now = fs::file_time_type::clock::now();
  for (int i = 0; i < 6; ++i) {  // build0 the newest, build5 the oldest
    std::string b = cache + "/code/build" + std::to_string(i);
    fs::create_directories(b);
    std::ofstream(b + "/entry") << "x";
    fs::last_write_time(b, now - std::chrono::hours(24 * (i + 1)));
  }
  EXPECT_EQ(run(cache), kExpected);
  std::vector<std::string> left;
  for (const auto& e : fs::directory_iterator(cache + "/code")) left.push_back(e.path().filename().string());
  std::sort(left.begin(), left.end());
  std::string ours = fs::path(entry()).parent_path().filename().string();
  std::vector<std::string> want = {"build0", "build1", "build2", ours};
  std::sort(want.begin(), want.end());
  EXPECT_EQ(left, want);
  EXPECT_TRUE(fs::exists(entry()));
}

// The bytes' reader is bounds-checked: every prefix of a unit's bytes is refused with
// CodeBytesError (a prefix is never a whole unit: the module index comes last).
TEST_F(CodeCache, EveryTruncationIsRefused) {
  Interp I;
  auto file = SourceFile::load(script);
  auto unit = compile_module(I, file, "__main__");
  std::string bytes = serialize_code(I, *unit);
  auto again = deserialize_code(I, bytes, file, "__main__");
  EXPECT_EQ(serialize_code(I, *again), bytes);
  for (size_t n = 0; n < bytes.size(); ++n)
    EXPECT_THROW(deserialize_code(I, std::string_view(bytes).substr(0, n), file, "__main__"), CodeBytesError) << n;
}

}  // namespace
}  // namespace onnxify::eval
