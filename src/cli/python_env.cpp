#include "cli/python_env.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace onnxify::cli {

namespace {

bool is_executable(const std::string& p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(p.c_str(), X_OK) == 0;
}

std::string on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  if (!path) return "";
  std::stringstream ss(path);
  std::string dir;
  while (std::getline(ss, dir, ':')) {
    std::string p = (dir.empty() ? "." : dir) + "/" + name;
    if (is_executable(p)) return p;
  }
  return "";
}

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Printed by the interpreter: its sys.path, one folder per line, in order: the standard library
// (its pure-Python modules are read for the ones onnxify does not write; lib-dynload tells which are
// compiled extensions), then the installed packages. '' (the current folder of `python -c`) and zip
// files are left out.
constexpr const char* kScript =
    "import os, sys\n"
    "for d in sys.path:\n"
    "    if d and os.path.isdir(d):\n"
    "        print(d)\n";

}  // namespace

void add_python_env_options(CLI::App& sub, PythonEnvOptions& o) {
  sub.add_option("--python", o.python,
                 "the Python interpreter whose installed packages imports resolve to (default: the active virtual "
                 "environment's, else python3 on PATH)");
  sub.add_flag("--no-python", o.none, "do not search the installed packages of a Python interpreter");
}

std::string python_interpreter(const PythonEnvOptions& o) {
  if (o.none) return "";
  if (!o.python.empty()) return o.python.find('/') == std::string::npos ? on_path(o.python) : o.python;
  if (const char* venv = std::getenv("VIRTUAL_ENV"); venv && *venv) {
    std::string p = std::string(venv) + "/bin/python";
    if (is_executable(p)) return p;
  }
  return on_path("python3");
}

std::vector<std::string> python_package_roots(const PythonEnvOptions& o, std::string* error) {
  std::vector<std::string> roots;
  std::string exe = python_interpreter(o);
  if (exe.empty()) {
    if (!o.python.empty() && !o.none) *error = "--python '" + o.python + "': no such interpreter";
    return roots;
  }
  std::string cmd = shell_quote(exe) + " -c " + shell_quote(kScript) + " 2>/dev/null";
  FILE* f = ::popen(cmd.c_str(), "r");
  if (!f) {
    if (!o.python.empty()) *error = "--python '" + o.python + "': could not be run";
    return roots;
  }
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  int status = ::pclose(f);
  if (status != 0) {
    if (!o.python.empty()) *error = "--python '" + o.python + "': asking it for its sys.path failed";
    return {};
  }
  std::stringstream ss(out);
  std::string line;
  while (std::getline(ss, line))
    if (!line.empty()) roots.push_back(line);
  return roots;
}

}  // namespace onnxify::cli
