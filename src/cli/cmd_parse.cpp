// onnxify parse FILE... [--dump] [--positions]
//
// Parses Python files and prints each AST exactly as CPython 3.11's ast.dump(ast.parse(source))
// does (--positions: include_attributes=True), one line per file. Without --dump it only checks
// the syntax. Hidden flags for tests and benchmarks:
//   --files-from LIST   also parse the files listed in LIST (one path per line; '-' is stdin), and
//                       keep going after a syntax error: its line of output is "error: <header>"
//   --bench             read every file first, then time parsing alone; prints
//                       "files=N bytes=B seconds=S MB/s=R"
//   --skip-fstring-field-positions   see DumpOptions (for the corpus test)
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>

#include "cli/commands.h"
#include "syntax/syntax.h"

namespace onnxify::cli {

namespace {

struct ParseOptions {
  std::vector<std::string> files;
  std::string files_from;
  bool dump = false;
  bool positions = false;
  bool bench = false;
  bool skip_fstring_field_positions = false;
};

std::vector<std::string> read_list(const std::string& path) {
  std::vector<std::string> out;
  std::ifstream file;
  std::istream* in = &std::cin;
  if (path != "-") {
    file.open(path);
    if (!file) throw Diagnostic::error(fmt::format("cannot read the file list '{}'", path));
    in = &file;
  }
  for (std::string line; std::getline(*in, line);)
    if (!line.empty()) out.push_back(line);
  return out;
}

int run_bench(const std::vector<std::string>& files) {
  std::vector<std::shared_ptr<const SourceFile>> sources;
  size_t bytes = 0;
  for (const std::string& f : files) {
    sources.push_back(SourceFile::load(f));
    bytes += sources.back()->text().size();
  }
  size_t failed = 0;
  auto t0 = std::chrono::steady_clock::now();
  for (const auto& s : sources) {
    try {
      syntax::ParsedModule m = syntax::parse_module(s);
    } catch (const Diagnostic&) {
      ++failed;
    }
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("files=%zu bytes=%zu seconds=%.6f MB/s=%.3f failed=%zu\n", sources.size(), bytes, seconds,
              bytes / 1e6 / seconds, failed);
  return failed ? kConvertFailed : kOk;
}

int run_parse(const ParseOptions& o) {
  std::vector<std::string> files = o.files;
  bool keep_going = !o.files_from.empty();
  if (keep_going) {
    std::vector<std::string> listed = read_list(o.files_from);
    files.insert(files.end(), listed.begin(), listed.end());
  }
  if (files.empty()) return report(Diagnostic::error("no input files"), kBadInput);
  if (o.bench) return run_bench(files);
  int status = kOk;
  std::string out;
  for (const std::string& path : files) {
    std::shared_ptr<const SourceFile> source;
    try {
      source = SourceFile::load(path);
    } catch (const Diagnostic& d) {
      if (!keep_going) return report(d, kBadInput);
      std::printf("error: %s\n", d.header().c_str());
      status = kBadInput;
      continue;
    }
    try {
      syntax::ParsedModule m = syntax::parse_module(source);
      if (o.dump) {
        out.clear();
        syntax::dump(m.root(), out,
                     {.include_attributes = o.positions,
                      .skip_fstring_field_positions = o.skip_fstring_field_positions});
        out += '\n';
        std::fwrite(out.data(), 1, out.size(), stdout);
      }
    } catch (const Diagnostic& d) {
      if (!keep_going) return report(d, kConvertFailed);
      std::printf("error: %s\n", d.header().c_str());
      if (status == kOk) status = kConvertFailed;
    }
  }
  std::fflush(stdout);
  return status;
}

}  // namespace

Action setup_parse(CLI::App& sub) {
  auto o = std::make_shared<ParseOptions>();
  sub.add_option("FILE", o->files, "Python source file(s)");
  sub.add_flag("--dump", o->dump, "print the AST as CPython's ast.dump prints it");
  sub.add_flag("--positions", o->positions, "with --dump: include positions (include_attributes=True)");
  sub.add_option("--files-from", o->files_from)->group("");  // hidden: tests and benchmarks
  sub.add_flag("--bench", o->bench)->group("");
  sub.add_flag("--skip-fstring-field-positions", o->skip_fstring_field_positions)->group("");
  return [o] { return run_parse(*o); };
}

}  // namespace onnxify::cli
