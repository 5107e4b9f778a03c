// FileStamps: what the paths an interpreter's imports depended on showed (file_stamps.h).
#include "eval/file_stamps.h"

#include <dirent.h>
#include <xxhash.h>

#include <algorithm>
#include <cctype>
#include <vector>

namespace onnxify::eval {

namespace {

bool is_identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_' || (s[0] & 0x80))) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || (c & 0x80))) return false;
  return true;
}

bool ends_with(const std::string& s, const char* tail) {
  size_t n = std::char_traits<char>::length(tail);
  return s.size() >= n && s.compare(s.size() - n, n, tail) == 0;
}

// What an import could find under this name: a package or namespace folder, a source file, an
// extension module, a .pth file (site-packages). Other names (model.onnx, __pycache__) cannot
// change what an import does.
bool importable(const std::string& name, unsigned char type) {
  if (type == DT_DIR || type == DT_LNK || type == DT_UNKNOWN)
    if (is_identifier(name) && name != "__pycache__") return true;
  return ends_with(name, ".py") || ends_with(name, ".so") || ends_with(name, ".pth");
}

uint64_t hash_names(const std::string& dir, FileStamps::Kind kind) {
  std::vector<std::string> names;
  if (DIR* d = ::opendir(dir.empty() ? "." : dir.c_str())) {
    while (const dirent* e = ::readdir(d)) {
      std::string n = e->d_name;
      if (n == "." || n == "..") continue;
      if (kind == FileStamps::kImports && !importable(n, e->d_type)) continue;
      names.push_back(std::move(n));
    }
    ::closedir(d);
  }
  std::sort(names.begin(), names.end());
  XXH3_state_t* st = XXH3_createState();
  XXH3_64bits_reset(st);
  for (const std::string& n : names) XXH3_64bits_update(st, n.c_str(), n.size() + 1);
  uint64_t h = XXH3_64bits_digest(st);
  XXH3_freeState(st);
  return h;
}

bool same_time(const timespec& a, const timespec& b) { return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec; }

}  // namespace

FileStamps::Stamp FileStamps::now(const std::string& path, Kind kind, const Stamp* before) {
  Stamp s;
  struct stat st;
  if (::stat(path.empty() ? "." : path.c_str(), &st) != 0) return s;
  s.exists = true;
  s.dev = st.st_dev;
  s.ino = st.st_ino;
  s.size = st.st_size;
  s.mode = st.st_mode;
  s.mtime = st.st_mtim;
  s.ctime = st.st_ctim;
  if (kind != kFile && S_ISDIR(st.st_mode)) {
    // Listed again only when the folder's mtime moved since the names were taken.
    bool unmoved = before && before->exists && before->ino == s.ino && same_time(before->mtime, s.mtime);
    s.names = unmoved ? before->names : hash_names(path, kind);
  }
  return s;
}

bool FileStamps::same(const Stamp& a, const Stamp& b, Kind kind) {
  if (a.exists != b.exists) return false;
  if (!a.exists) return true;
  if (a.dev != b.dev || a.ino != b.ino || (a.mode & S_IFMT) != (b.mode & S_IFMT)) return false;
  if (S_ISDIR(a.mode)) return kind == kFile || a.names == b.names;
  // The change time moves on every write, rename into place and chmod: with the inode (an editor
  // that saves by renaming a new file over the old) and the size it catches edits within one
  // mtime tick too.
  return a.size == b.size && a.mode == b.mode && same_time(a.mtime, b.mtime) && same_time(a.ctime, b.ctime);
}

void FileStamps::add(const std::string& path, Kind kind) {
  auto& table = stamps_[kind];
  if (table.count(path)) return;
  table.emplace(path, now(path, kind, nullptr));
}

std::string FileStamps::changed() {
  for (int k = 0; k < 3; ++k) {
    Kind kind = static_cast<Kind>(k);
    for (auto& [path, stamp] : stamps_[k]) {
      Stamp s = now(path, kind, &stamp);
      if (!same(s, stamp, kind)) return path.empty() ? "." : path;
      // The names are the same though the folder's mtime moved (a file that cannot be imported
      // was written there): keep the new mtime, so the folder is not listed again next time.
      stamp.mtime = s.mtime;
      stamp.ctime = s.ctime;
    }
  }
  return "";
}

}  // namespace onnxify::eval
