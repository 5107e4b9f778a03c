#include "eval/file_access.h"

#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <vector>

#include "eval/file_stamps.h"
#include "eval/interp.h"
#include "eval/loader.h"
#include <fmt/format.h>

namespace onnxify::eval {

namespace {

bool real_uncached(const std::string& p, std::string* out, int* err) {
  char buf[PATH_MAX];
  if (::realpath(p.c_str(), buf)) {
    *out = buf;
    return true;
  }
  *err = errno;
  return false;
}

// realpath(p), with the folders it passes through resolved once per interpreter: an import checks
// thousands of paths under the same few folders (transformers lists and reads its ~3,000 model
// files), and realpath reads every component's link, a dozen readlink calls a path. Folders do not
// move while onnxify runs (it writes no files). The last component is looked at itself: a link is
// resolved in full, anything else is its folder's resolution + its name, as realpath gives it.
bool real(Interp& I, const std::string& p, std::string* out, int* err) {
  size_t slash = p.rfind('/');
  if (p.empty() || p[0] != '/' || slash == 0 || slash + 1 >= p.size()) return real_uncached(p, out, err);
  std::string name = p.substr(slash + 1);
  if (name == "." || name == "..") return real_uncached(p, out, err);
  std::string parent = p.substr(0, slash);
  auto& folders = I.loader().resolved_folders;
  auto it = folders.find(parent);
  if (it == folders.end()) {
    std::string resolved;
    if (!real(I, parent, &resolved, err)) return false;
    it = folders.emplace(parent, std::move(resolved)).first;
  }
  std::string candidate = (it->second == "/" ? "" : it->second) + "/" + name;
  struct stat st;
  if (::lstat(candidate.c_str(), &st) != 0) {
    *err = errno;
    return false;
  }
  if (S_ISLNK(st.st_mode)) return real_uncached(p, out, err);
  *out = std::move(candidate);
  return true;
}

bool inside(const std::string& path, const std::string& root) {
  if (root == "/") return true;
  return path == root || (path.size() > root.size() && path.compare(0, root.size(), root) == 0 &&
                          path[root.size()] == '/');
}

// The roots, resolved like the paths they are compared with (a root may itself be a symbolic link:
// a virtual environment linked from elsewhere). Recomputed when the search path changes.
const std::vector<std::string>& real_roots(Interp& I) {
  thread_local std::vector<std::string> cached_for, roots;
  const std::vector<std::string>& search = I.loader().search_path;
  if (cached_for != search) {
    cached_for = search;
    roots.clear();
    for (const std::string& r : search) {
      std::string resolved;
      int err = 0;
      if (real_uncached(r.empty() ? "." : r, &resolved, &err)) roots.push_back(resolved);
    }
  }
  return roots;
}

bool in_roots(Interp& I, const std::string& resolved) {
  for (const std::string& r : real_roots(I))
    if (inside(resolved, r)) return true;
  return false;
}

PathAccess refused(const std::string& path) {
  PathAccess a;
  a.kind = PathAccess::kRefused;
  a.reason = fmt::format(
      "'{}' is outside the import roots (the model's folder, the --path folders and the Python environment's "
      "package folders); onnxify reads no other files",
      path);
  return a;
}

std::string absolute(const std::string& p) {
  if (!p.empty() && p[0] == '/') return p;
  char cwd[PATH_MAX];
  std::string base = ::getcwd(cwd, sizeof cwd) ? cwd : "/";
  return p.empty() ? base : base + "/" + p;
}

}  // namespace

PathAccess check_path_access(Interp& I, const std::string& path, bool follow_last) {
  if (path.find('\0') != std::string::npos) return refused(path);
  // `<onnxify>/...` names onnxify's embedded modules' folders (their __path__) and the Keras home of
  // the evaluated environment (os.environ): no file is there, whatever the working directory holds.
  if (path == "<onnxify>" || path.rfind("<onnxify>/", 0) == 0) {
    PathAccess a;
    a.kind = PathAccess::kMissing;
    a.error = ENOENT;
    return a;
  }
  std::string abs = absolute(path);
  if (!follow_last) {
    // lstat: the folder holding the entry must be inside a root; the entry itself is not followed.
    while (abs.size() > 1 && abs.back() == '/') abs.pop_back();
    size_t slash = abs.rfind('/');
    std::string base = abs.substr(slash + 1);
    if (!base.empty() && base != "." && base != "..") {
      PathAccess dir = check_path_access(I, slash == 0 ? "/" : abs.substr(0, slash), true);
      if (dir.kind == PathAccess::kReadable) dir.resolved = (dir.resolved == "/" ? "" : dir.resolved) + "/" + base;
      if (dir.kind == PathAccess::kRefused) return refused(path);
      if (I.stamps && dir.kind == PathAccess::kReadable) I.stamps->add(dir.resolved);
      return dir;
    }
  }
  PathAccess a;
  int err = 0;
  if (!path.empty() && real(I, abs, &a.resolved, &err)) {
    if (!in_roots(I, a.resolved)) return refused(path);
    a.kind = PathAccess::kReadable;
    if (I.stamps) I.stamps->add(a.resolved);
    return a;
  }
  if (path.empty()) err = ENOENT;
  // Missing: answer "no such file" only inside a root. The deepest existing folder on the way is
  // found by dropping components from the end (before any `..` is applied to them).
  std::string prefix = abs;
  while (true) {
    size_t slash = prefix.rfind('/');
    if (slash == std::string::npos) break;
    prefix = slash == 0 ? "/" : prefix.substr(0, slash);
    std::string resolved;
    int e2 = 0;
    if (real(I, prefix, &resolved, &e2)) {
      if (!in_roots(I, resolved)) return refused(path);
      a.kind = PathAccess::kMissing;
      a.error = err;
      if (I.stamps) I.stamps->add(abs);  // found missing: stale once it exists
      return a;
    }
    if (prefix == "/") break;
  }
  return refused(path);
}

}  // namespace onnxify::eval
