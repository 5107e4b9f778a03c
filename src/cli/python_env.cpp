#include "cli/python_env.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "eval/file_stamps.h"

extern char** environ;

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

// Printed by the interpreter: its sys.path, one folder per line after "R ", in order: the standard
// library (its pure-Python modules are read for the ones onnxify does not write; lib-dynload tells
// which are compiled extensions), then the installed packages. '' (the current folder of `python
// -c`) is left out; entries that are no folder (a zip file, a path not made yet) and the user's
// site-packages folder come after "M ": the answer depends on them too, though they are no roots.
constexpr const char* kScript =
    "import os, sys, site\n"
    "for d in sys.path:\n"
    "    if d:\n"
    "        print('R' if os.path.isdir(d) else 'M', d)\n"
    "if getattr(site, 'ENABLE_USER_SITE', False):\n"
    "    print('M', site.getusersitepackages())\n";

// The interpreter's answer, kept in this process for the next command (the export server runs many)
// while everything it was computed from is unchanged: the same interpreter, working folder and
// environment, and the same files: the interpreter (through its symlinks), pyvenv.cfg, the sys.path
// folders' names (a .pth or sitecustomize.py added), every .pth file and sitecustomize.py or
// usercustomize.py in them (they may add folders), the entries that were missing or no folder.
struct KeptAnswer {
  std::string key;
  std::vector<std::string> roots;
  eval::FileStamps stamps;
};

std::string answer_key(const std::string& exe) {
  std::string key = exe + '\0';
  char cwd[4096];
  if (::getcwd(cwd, sizeof cwd)) key += cwd;
  key += '\0';
  std::vector<std::string> env;
  // All of it (a .pth line may read any variable) but what the shell changes between two commands
  // and Python's startup never reads: the last command, the previous folder, the nesting level.
  for (char** e = environ; e && *e; ++e) {
    std::string_view v = *e;
    if (v.rfind("_=", 0) != 0 && v.rfind("OLDPWD=", 0) != 0 && v.rfind("PWD=", 0) != 0 && v.rfind("SHLVL=", 0) != 0)
      env.emplace_back(v);
  }
  std::sort(env.begin(), env.end());
  for (const std::string& e : env) key += e + '\0';
  return key;
}

void stamp_answer(const std::string& exe, const std::vector<std::string>& roots,
                  const std::vector<std::string>& others, eval::FileStamps* stamps) {
  std::string bin = exe.substr(0, exe.rfind('/') + 1);
  for (const std::string& p : {exe, bin + "pyvenv.cfg", bin + "../pyvenv.cfg"}) stamps->add(p);
  for (const std::string& p : others) stamps->add(p, eval::FileStamps::kEntries);
  for (const std::string& dir : roots) {
    stamps->add(dir, eval::FileStamps::kEntries);
    DIR* d = ::opendir(dir.c_str());
    if (!d) continue;
    while (const dirent* e = ::readdir(d)) {
      std::string n = e->d_name;
      bool pth = n.size() > 4 && n.compare(n.size() - 4, 4, ".pth") == 0;
      if (pth || n == "sitecustomize.py" || n == "usercustomize.py") stamps->add(dir + "/" + n);
    }
    ::closedir(d);
  }
}

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
  static KeptAnswer kept;
  std::string key = answer_key(exe);
  if (!kept.key.empty() && kept.key == key && kept.stamps.changed().empty()) return kept.roots;
  kept.key.clear();

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
  std::vector<std::string> others;
  std::stringstream ss(out);
  std::string line;
  while (std::getline(ss, line)) {
    if (line.size() < 3) continue;
    (line[0] == 'R' ? roots : others).push_back(line.substr(2));
  }
  kept.roots = roots;
  kept.stamps = eval::FileStamps();
  stamp_answer(exe, roots, others, &kept.stamps);
  kept.key = key;
  return roots;
}

}  // namespace onnxify::cli
