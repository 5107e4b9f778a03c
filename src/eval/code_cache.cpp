// The compiled-module cache (code_cache.h): keys, the entry file's layout, atomic writes.
//
// Entries live in a folder per build, <dir>/code/<build ID in hex>/, so that the entries of builds
// no longer run can be removed whole: when a build makes its folder, only the newest kKeptBuilds
// folders (by modification time: a folder's changes when an entry is written into it) are kept.
//
// An entry, <dir>/code/<build>/<key as 32 hex digits>:
//   8 bytes  "onnxifyc"
//   16 bytes the key again (a file copied or renamed onto another key is foreign)
//   8 bytes  the payload's length, little-endian
//   8 bytes  XXH3-64 of the payload
//   payload  serialize_code's bytes
#include "eval/code_cache.h"

#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/stat.h>
#include <dirent.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <optional>

#include "eval/code_serial.h"
#include "support/fd_io.h"
#include "eval/compile.h"

namespace onnxify::eval {

namespace {

constexpr char kMagic[8] = {'o', 'n', 'n', 'x', 'i', 'f', 'y', 'c'};
constexpr size_t kHeader = 8 + 16 + 8 + 8;
constexpr size_t kKeptBuilds = 4;  // the CLI and the Python module are two builds; a few older ones

// The GNU build ID of the ELF object this code is linked into (the onnxify executable, or the
// Python module's shared library): it changes whenever the code does, so entries written by
// another build are never read. Empty when the object has none.
const std::string& build_id() {
  static const std::string id = [] {
    struct Search {
      uintptr_t probe;
      std::string found;
    } s{reinterpret_cast<uintptr_t>(&build_id), {}};
    dl_iterate_phdr(
        [](dl_phdr_info* info, size_t, void* arg) -> int {
          auto* s = static_cast<Search*>(arg);
          bool ours = false;
          for (int i = 0; i < info->dlpi_phnum && !ours; ++i) {
            const ElfW(Phdr)& ph = info->dlpi_phdr[i];
            uintptr_t start = info->dlpi_addr + ph.p_vaddr;
            ours = ph.p_type == PT_LOAD && s->probe >= start && s->probe < start + ph.p_memsz;
          }
          if (!ours) return 0;
          for (int i = 0; i < info->dlpi_phnum; ++i) {
            const ElfW(Phdr)& ph = info->dlpi_phdr[i];
            if (ph.p_type != PT_NOTE) continue;
            const char* notes = reinterpret_cast<const char*>(info->dlpi_addr + ph.p_vaddr);
            size_t off = 0;
            while (off + sizeof(ElfW(Nhdr)) <= ph.p_memsz) {
              const auto* nh = reinterpret_cast<const ElfW(Nhdr)*>(notes + off);
              size_t name = off + sizeof(ElfW(Nhdr));
              size_t desc = name + ((nh->n_namesz + 3) & ~size_t{3});
              size_t next = desc + ((nh->n_descsz + 3) & ~size_t{3});
              if (next > ph.p_memsz) break;
              if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 && std::memcmp(notes + name, "GNU", 4) == 0) {
                s->found.assign(notes + desc, nh->n_descsz);
                return 1;
              }
              off = next;
            }
          }
          return 1;
        },
        &s);
    return s.found;
  }();
  return id;
}

struct Key {
  unsigned char bytes[16];
};

Key make_key(const std::string& id, const std::string& module_name, std::string_view text) {
  XXH3_state_t* st = XXH3_createState();
  XXH3_128bits_reset(st);
  static const char kFormat[] = "onnxify compiled module, format 1";
  XXH3_128bits_update(st, kFormat, sizeof kFormat);
  uint64_t n = id.size();
  XXH3_128bits_update(st, &n, sizeof n);
  XXH3_128bits_update(st, id.data(), id.size());
  n = module_name.size();
  XXH3_128bits_update(st, &n, sizeof n);
  XXH3_128bits_update(st, module_name.data(), module_name.size());
  XXH3_128bits_update(st, text.data(), text.size());
  XXH128_canonical_t c;
  XXH128_canonicalFromHash(&c, XXH3_128bits_digest(st));
  XXH3_freeState(st);
  Key k;
  std::memcpy(k.bytes, c.digest, 16);
  return k;
}

std::string hex(std::string_view bytes) {
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned char b : bytes) out += kHex[b >> 4], out += kHex[b & 15];
  return out;
}

std::string build_folder(const std::string& dir) { return dir + "/code/" + hex(build_id()); }

std::string entry_path(const std::string& dir, const Key& k) {
  return build_folder(dir) + "/" + hex(std::string_view(reinterpret_cast<const char*>(k.bytes), 16));
}

void put_u64(std::string& out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out += static_cast<char>(v >> (8 * i));
}
uint64_t get_u64(const char* p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= static_cast<uint64_t>(static_cast<unsigned char>(p[i])) << (8 * i);
  return v;
}

// The payload of the entry at `path` when it is whole and is the entry for `key`.
std::optional<std::string> read_entry(const std::string& path, const Key& key) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  struct stat st;
  std::string data;
  bool ok = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && static_cast<size_t>(st.st_size) >= kHeader;
  if (ok) {
    data.resize(static_cast<size_t>(st.st_size));
    ok = read_fully(fd, data.data(), data.size()) == data.size();
  }
  ::close(fd);
  if (!ok || std::memcmp(data.data(), kMagic, 8) != 0 || std::memcmp(data.data() + 8, key.bytes, 16) != 0)
    return std::nullopt;
  uint64_t size = get_u64(data.data() + 24), sum = get_u64(data.data() + 32);
  if (size != data.size() - kHeader || XXH3_64bits(data.data() + kHeader, size) != sum) return std::nullopt;
  data.erase(0, kHeader);
  return data;
}

// Creates `dir` and its parents (mode 0700: entries are trusted as compiled code). *made: whether
// `dir` itself was created now.
bool make_dirs(const std::string& dir, bool* made) {
  for (size_t i = 1; i <= dir.size(); ++i) {
    if (i < dir.size() && dir[i] != '/') continue;
    std::string prefix = dir.substr(0, i);
    bool ok = ::mkdir(prefix.c_str(), 0700) == 0;
    if (!ok && errno != EEXIST) return false;
    *made = ok;
  }
  return true;
}

// Removes the build folders in `code` other than the newest kKeptBuilds: their files, then the
// folder (which stays if something else, a subfolder or a hidden file, is left in it).
void prune_builds(const std::string& code) {
  DIR* d = ::opendir(code.c_str());
  if (!d) return;
  std::vector<std::pair<int64_t, std::string>> builds;  // (modification time, folder)
  while (dirent* e = ::readdir(d)) {
    std::string name = e->d_name;
    struct stat st;
    if (name == "." || name == ".." || ::lstat((code + "/" + name).c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) continue;
    builds.emplace_back(static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec, code + "/" + name);
  }
  ::closedir(d);
  if (builds.size() <= kKeptBuilds) return;
  std::sort(builds.rbegin(), builds.rend());
  for (size_t i = kKeptBuilds; i < builds.size(); ++i) {
    const std::string& folder = builds[i].second;
    if (DIR* b = ::opendir(folder.c_str())) {
      while (dirent* e = ::readdir(b))
        if (e->d_name[0] != '.') ::unlink((folder + "/" + e->d_name).c_str());
      ::closedir(b);
    }
    ::rmdir(folder.c_str());
  }
}

// Writes the entry through a temporary file in the same folder renamed onto `path`: a reader sees
// the old entry, none, or the whole new one. Failures leave no file behind and are not errors.
void write_entry(const std::string& dir, const std::string& path, const Key& key, const std::string& payload) {
  bool made = false;
  if (!make_dirs(build_folder(dir), &made)) return;
  if (made) prune_builds(dir + "/code");
  static std::atomic<uint64_t> counter{0};
  std::string tmp = path + ".tmp" + std::to_string(::getpid()) + "." + std::to_string(counter++);
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return;
  std::string head(kMagic, 8);
  head.append(reinterpret_cast<const char*>(key.bytes), 16);
  put_u64(head, payload.size());
  put_u64(head, XXH3_64bits(payload.data(), payload.size()));
  bool ok = write_fully(fd, head.data(), head.size()) && write_fully(fd, payload.data(), payload.size());
  ok = ::close(fd) == 0 && ok;
  if (!ok || ::rename(tmp.c_str(), path.c_str()) != 0) ::unlink(tmp.c_str());
}

}  // namespace

std::string default_code_cache_dir() {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  if (xdg && xdg[0] == '/') return std::string(xdg) + "/onnxify";
  const char* home = std::getenv("HOME");
  if (home && home[0] == '/') return std::string(home) + "/.cache/onnxify";
  return "";
}

std::string code_cache_entry(const std::string& dir, const SourceFile& file, const std::string& module_name) {
  if (dir.empty() || build_id().empty()) return "";
  return entry_path(dir, make_key(build_id(), module_name, file.text()));
}

std::unique_ptr<CodeUnit> compile_module_cached(Interp& I, std::shared_ptr<const SourceFile> file,
                                                const std::string& module_name, const std::string& dir) {
  if (dir.empty() || build_id().empty()) return compile_module(I, std::move(file), module_name);
  Key key = make_key(build_id(), module_name, file->text());
  std::string path = entry_path(dir, key);
  if (std::optional<std::string> payload = read_entry(path, key)) {
    try {
      return deserialize_code(I, *payload, file, module_name);
    } catch (const CodeBytesError&) {
      // Written by this build yet not readable: compiled again and replaced below.
    }
  }
  std::unique_ptr<CodeUnit> unit = compile_module(I, file, module_name);
  // A file in another encoding is parsed from its UTF-8 transcoding, which the positions refer
  // to: such (rare) files are compiled every time rather than storing the transcoding too.
  if (unit->file == file) {
    try {
      write_entry(dir, path, key, serialize_code(I, *unit));
    } catch (const CodeBytesError&) {
    }
  }
  return unit;
}

std::string build_id_hex() { return hex(build_id()); }

}  // namespace onnxify::eval
