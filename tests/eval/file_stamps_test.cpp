// FileStamps (src/eval/file_stamps.h): a script that imports a module, reads a data file, lists a
// folder and looks for a missing file has each of them stamped; editing, adding or removing any of
// them makes the stamps report a change, and a file no import or listing could see does not.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "eval/eval.h"
#include "eval/file_stamps.h"

namespace onnxify::eval {
namespace {

namespace fs = std::filesystem;

constexpr const char* kScript = R"PY(
import os
import helper
with open(os.path.join(os.path.dirname(__file__), "data", "values.txt")) as f:
    values = f.read().split()
names = sorted(os.listdir(os.path.join(os.path.dirname(__file__), "data")))
missing = os.path.exists(os.path.join(os.path.dirname(__file__), "later.txt"))
print(helper.K, values, names, missing)
)PY";

class Stamps : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/onnxify-stamps-test-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    root = tmpl;
    fs::create_directories(root + "/data");
    write("main.py", kScript);
    write("helper.py", "K = 1\n");
    write("data/values.txt", "1 2 3\n");
  }
  void TearDown() override { fs::remove_all(root); }
  void write(const std::string& rel, const std::string& text) {
    std::ofstream(root + "/" + rel, std::ios::trunc) << text;
  }
  // Runs the script with stamps on; what it printed.
  std::string run() {
    Options o;
    std::string out;
    o.out = [&out](std::string_view s) { out += s; };
    Interp I(o);
    I.stamps = &stamps;
    run_main_script(I, root + "/main.py");
    I.flush();
    I.stamps = nullptr;
    return out;
  }
  // The path the stamps report as changed, relative to root.
  std::string changed() {
    std::string p = stamps.changed();
    return p.compare(0, root.size() + 1, root + "/") == 0 ? p.substr(root.size() + 1) : p;
  }
  std::string root;
  FileStamps stamps;
};

TEST_F(Stamps, EveryInputIsStampedAndEachChangeIsSeen) {
  EXPECT_EQ(run(), "1 ['1', '2', '3'] ['values.txt'] False\n");
  EXPECT_GE(stamps.size(), 4u);
  EXPECT_EQ(changed(), "");

  write("helper.py", "K = 2\n");  // same size, within the same second
  EXPECT_EQ(changed(), "helper.py");
  stamps = FileStamps();
  run();
  write("data/values.txt", "4 5 6\n");
  EXPECT_EQ(changed(), "data/values.txt");

  stamps = FileStamps();
  run();
  write("later.txt", "");  // found missing before
  EXPECT_EQ(changed(), "later.txt");

  stamps = FileStamps();
  run();
  write("model.onnx", "");  // written next to the script: no import could find it
  fs::create_directories(root + "/__pycache__");
  EXPECT_EQ(changed(), "");
  write("other.py", "");  // an import could find this one
  EXPECT_EQ(changed(), root);

  stamps = FileStamps();
  run();
  write("data/more.txt", "");  // a folder the script listed
  EXPECT_EQ(changed(), "data");
  stamps = FileStamps();
  run();
  fs::remove(root + "/data/more.txt");
  EXPECT_EQ(changed(), "data");
}

}  // namespace
}  // namespace onnxify::eval
