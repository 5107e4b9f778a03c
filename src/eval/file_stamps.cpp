// FileStamps: stat signatures of the paths an interpreter's imports depended on.
#include "eval/file_stamps.h"

namespace onnxify::eval {

bool FileStamps::Stamp::operator==(const Stamp& o) const {
  if (exists != o.exists) return false;
  if (!exists) return true;
  // The change time moves on every write, rename into place and chmod: with the inode (an editor
  // that saves by renaming a new file over the old) and the size it catches edits within one
  // mtime tick too.
  return dev == o.dev && ino == o.ino && size == o.size && mode == o.mode && mtime.tv_sec == o.mtime.tv_sec &&
         mtime.tv_nsec == o.mtime.tv_nsec && ctime.tv_sec == o.ctime.tv_sec && ctime.tv_nsec == o.ctime.tv_nsec;
}

FileStamps::Stamp FileStamps::now(const std::string& path) {
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
  return s;
}

void FileStamps::add(const std::string& path) {
  if (stamps_.count(path)) return;
  stamps_.emplace(path, now(path));
}

std::string FileStamps::changed() const {
  for (const auto& [path, stamp] : stamps_)
    if (!(now(path) == stamp)) return path.empty() ? "." : path;
  return "";
}

}  // namespace onnxify::eval
