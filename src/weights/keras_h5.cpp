// Keras weights in HDF5: `model.weights.h5` (Keras 3's save_weights), the same file inside a `.keras`
// archive (a zip with config.json and metadata.json beside it), Keras 2's `.h5` (read_legacy_layout),
// read through Debian's libhdf5,
// read-only, from memory, with no filter plugins loaded (so nothing from outside the library runs).
//
// The result is a flat dict of dataset path -> tensor ("layers/conv2d/vars/0"): the names Keras'
// saving code gives each layer's variables. Which model parameter a path is, Keras' own code says
// when the weights are bound (src/torch/weights_bind.cpp, prelude _onnxify_keras.py).
//
// A contiguous little-endian dataset is a zero-copy view of the file (the mapping, or the stored zip
// record it sits in); a chunked one is decoded into a buffer of its own by hdf5_chunked.cpp, any
// other by HDF5.
#include <hdf5.h>

#include <fmt/core.h>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>

#include "support/diagnostic.h"
#include "support/fd_io.h"
#include "support/sanitizer.h"
#include "weights/hdf5_chunked.h"
#include "weights/loaders.h"
#include "weights/zip.h"

namespace onnxify::weights {

namespace {

[[noreturn]] void fail(std::string msg) { throw Diagnostic::error(std::move(msg)); }

// The member of a .keras archive that holds the weights (keras/src/saving/saving_lib.py).
constexpr std::string_view kKerasWeights = "model.weights.h5";

// A declared size this much larger than what is stored, and over 1 GiB, is a decompression bomb
// (Keras refuses the same kind of dataset, at 4 GiB and 1000x).
constexpr uint64_t kBombFloorBytes = uint64_t{1} << 30;
constexpr uint64_t kMaxExpansion = 1000;

// Bounds on the group tree's walk (visit_link).
constexpr uint64_t kMaxLinks = 1'000'000;
constexpr size_t kMaxPathBytes = 4096;
constexpr long kMaxDepth = 64;

// An HDF5 identifier closed when it goes out of scope.
class Id {
 public:
  Id(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
  ~Id() {
    if (id_ >= 0) close_(id_);
  }
  Id(const Id&) = delete;
  Id& operator=(const Id&) = delete;
  hid_t get() const { return id_; }
  bool ok() const { return id_ >= 0; }

 private:
  hid_t id_;
  herr_t (*close_)(hid_t);
};

// The library's global settings, once: no error stack printed to stderr (each failure becomes our
// own diagnostic) and no dynamically loaded filter plugins.
void init_library() {
  static const bool done = [] {
    H5open();
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    H5PLset_loading_state(0);
    return true;
  }();
  (void)done;
}

// A string attribute (fixed or variable length), or "" when there is none.
std::string string_attr(hid_t obj, const char* name) {
  if (H5Aexists(obj, name) <= 0) return "";
  Id a(H5Aopen(obj, name, H5P_DEFAULT), H5Aclose);
  if (!a.ok()) return "";
  Id type(H5Aget_type(a.get()), H5Tclose);
  if (H5Tget_class(type.get()) != H5T_STRING) return "";
  Id space(H5Aget_space(a.get()), H5Sclose);
  if (H5Sget_simple_extent_npoints(space.get()) != 1) return "";
  if (H5Tis_variable_str(type.get()) > 0) {
    Id mem(H5Tcopy(H5T_C_S1), H5Tclose);
    H5Tset_size(mem.get(), H5T_VARIABLE);
    char* s = nullptr;
    if (H5Aread(a.get(), mem.get(), &s) < 0 || !s) return "";
    std::string out(s);
    H5free_memory(s);
    return out;
  }
  size_t n = H5Tget_size(type.get());
  if (n == 0 || n > 4096) return "";
  std::string out(n, '\0');
  if (H5Aread(a.get(), type.get(), out.data()) < 0) return "";
  out.resize(std::strlen(out.c_str()));
  return out;
}

// A string-array attribute as Keras' legacy format writes it (h5py: fixed-length bytes from Keras 2,
// variable-length from Keras 3; an empty list is an empty float array), or nullopt when there is none
// or it is not a list of strings. Keras splits one longer than HDF5's 64 KiB header limit into
// NAME0, NAME1, ... (legacy_h5_format.save_attributes_to_hdf5_group).
constexpr size_t kMaxAttrStrings = 1 << 20;

std::optional<std::vector<std::string>> one_string_list(hid_t obj, const char* name) {
  if (H5Aexists(obj, name) <= 0) return std::nullopt;
  Id a(H5Aopen(obj, name, H5P_DEFAULT), H5Aclose);
  if (!a.ok()) return std::nullopt;
  Id type(H5Aget_type(a.get()), H5Tclose);
  Id space(H5Aget_space(a.get()), H5Sclose);
  const hssize_t n = H5Sget_simple_extent_npoints(space.get());
  if (n < 0 || static_cast<size_t>(n) > kMaxAttrStrings) return std::nullopt;
  std::vector<std::string> out;
  if (n == 0) return out;
  if (H5Tget_class(type.get()) != H5T_STRING) return std::nullopt;
  if (H5Tis_variable_str(type.get()) > 0) {
    Id mem(H5Tcopy(H5T_C_S1), H5Tclose);
    H5Tset_size(mem.get(), H5T_VARIABLE);
    std::vector<char*> ptrs(static_cast<size_t>(n), nullptr);
    if (H5Aread(a.get(), mem.get(), ptrs.data()) < 0) return std::nullopt;
    for (char* p : ptrs) {
      out.emplace_back(p ? p : "");
      if (p) H5free_memory(p);
    }
    return out;
  }
  const size_t size = H5Tget_size(type.get());
  if (size == 0 || size > 4096) return std::nullopt;
  std::vector<char> buf(size * static_cast<size_t>(n));
  if (H5Aread(a.get(), type.get(), buf.data()) < 0) return std::nullopt;
  for (hssize_t i = 0; i < n; ++i) {
    const char* p = buf.data() + size * static_cast<size_t>(i);
    out.emplace_back(p, strnlen(p, size));
  }
  return out;
}

std::optional<std::vector<std::string>> string_list_attr(hid_t obj, const std::string& name) {
  if (auto whole = one_string_list(obj, name.c_str())) return whole;
  std::optional<std::vector<std::string>> out;
  for (int chunk = 0;; ++chunk) {
    auto part = one_string_list(obj, (name + std::to_string(chunk)).c_str());
    if (!part) return out;
    if (!out) out.emplace();
    out->insert(out->end(), part->begin(), part->end());
    if (out->size() > kMaxAttrStrings) return std::nullopt;
  }
}

// The dtype a dataset's file type holds, as numpy (and so h5py, and so Keras) writes it.
DType dtype_of(hid_t type, hid_t dataset, const std::string& path) {
  const H5T_class_t cls = H5Tget_class(type);
  const size_t size = H5Tget_size(type);
  if (string_attr(dataset, "dtype") == "bfloat16" && size == 2) return DType::BFloat16;
  if (cls == H5T_FLOAT) {
    if (size == 2) return DType::Float16;
    if (size == 4) return DType::Float32;
    if (size == 8) return DType::Float64;
  } else if (cls == H5T_INTEGER) {
    const bool is_signed = H5Tget_sign(type) == H5T_SGN_2;
    switch (size) {
      case 1:
        return is_signed ? DType::Int8 : DType::UInt8;
      case 2:
        return is_signed ? DType::Int16 : DType::UInt16;
      case 4:
        return is_signed ? DType::Int32 : DType::UInt32;
      case 8:
        return is_signed ? DType::Int64 : DType::UInt64;
    }
  } else if (cls == H5T_ENUM && size == 1) {
    // h5py writes numpy bool as an enum of int8 {FALSE: 0, TRUE: 1}.
    return DType::Bool;
  }
  fail(fmt::format("HDF5 dataset '{}' holds elements of a type no tensor has (HDF5 class {}, {} bytes)", path,
                   static_cast<int>(cls), size));
}

// A link name as it can be printed and matched: the name itself when it is well-formed UTF-8 without
// control characters (every name Keras writes), else with each offending byte as \xNN, so a damaged
// file cannot put raw bytes into a listing or a diagnostic.
std::string readable(std::string_view name) {
  std::string out;
  for (size_t i = 0; i < name.size();) {
    const auto c = static_cast<unsigned char>(name[i]);
    size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    bool ok = len > 0 && i + len <= name.size() && (len > 1 || (c >= 0x20 && c != 0x7f));
    for (size_t k = 1; ok && k < len; ++k) ok = (static_cast<unsigned char>(name[i + k]) & 0xC0) == 0x80;
    if (ok) {
      out.append(name.substr(i, len));
      i += len;
    } else {
      out += fmt::format("\\x{:02x}", c);
      ++i;
    }
  }
  return out;
}

struct Walk {
  const Bytes* file;
  Heap* heap;
  Value root;
  std::string error;  // the first problem; the visit stops there
  uint64_t links = 0;
  bool metadata_only = false;  // the sandboxed first walk: every check, no data read
};

void add_dataset(Walk& w, hid_t file, const char* link) {
  const std::string path = readable(link);
  Id ds(H5Dopen2(file, link, H5P_DEFAULT), H5Dclose);
  if (!ds.ok()) {
    unsigned major = 0, minor = 0, release = 0;
    H5get_libversion(&major, &minor, &release);
    fail(fmt::format("HDF5 dataset '{}' cannot be opened by HDF5 {}.{}.{}: the file is damaged, or was written with "
                     "format features newer than that version reads (h5py's libver='latest'; Keras does not use it)",
                     path, major, minor, release));
  }
  Id type(H5Dget_type(ds.get()), H5Tclose);
  Id space(H5Dget_space(ds.get()), H5Sclose);
  Id plist(H5Dget_create_plist(ds.get()), H5Pclose);
  if (!type.ok() || !space.ok() || !plist.ok())
    fail(fmt::format("HDF5 dataset '{}' cannot be read (is the file damaged?)", path));
  if (H5Pget_external_count(plist.get()) > 0)
    fail(fmt::format("HDF5 dataset '{}' keeps its data in an external file, which onnxify does not read", path));
  const H5D_layout_t layout = H5Pget_layout(plist.get());
  if (layout == H5D_VIRTUAL)
    fail(fmt::format("HDF5 dataset '{}' is a virtual dataset (made of other files), which onnxify does not read", path));
  const DType dtype = dtype_of(type.get(), ds.get(), path);

  std::vector<int64_t> shape;
  const H5S_class_t sclass = H5Sget_simple_extent_type(space.get());
  if (sclass == H5S_SIMPLE) {
    int rank = H5Sget_simple_extent_ndims(space.get());
    if (rank < 0 || rank > 32) fail(fmt::format("HDF5 dataset '{}' has a dataspace of rank {}", path, rank));
    std::vector<hsize_t> dims(static_cast<size_t>(rank));
    H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
    for (hsize_t d : dims) shape.push_back(static_cast<int64_t>(d));
  } else if (sclass != H5S_SCALAR) {
    fail(fmt::format("HDF5 dataset '{}' has no data (a null dataspace)", path));
  }
  uint64_t numel = 1, nbytes;
  for (int64_t d : shape)
    if (d < 0 || __builtin_mul_overflow(numel, static_cast<uint64_t>(d), &numel))
      fail(fmt::format("HDF5 dataset '{}' has more elements than fit in 64 bits", path));
  if (__builtin_mul_overflow(numel, element_size(dtype), &nbytes) || nbytes > static_cast<uint64_t>(INT64_MAX))
    fail(fmt::format("HDF5 dataset '{}' has more bytes than fit in 64 bits", path));

  if (w.metadata_only) {
    // The chunk index is metadata too (a B-tree libhdf5 walks): list it, read nothing.
    hsize_t nchunks = 0;
    std::vector<hsize_t> offset(shape.size());
    if (layout == H5D_CHUNKED && H5Dget_num_chunks(ds.get(), space.get(), &nchunks) >= 0)
      for (hsize_t k = 0; k < nchunks && k < kMaxLinks; ++k) {
        unsigned mask = 0;
        haddr_t addr = 0;
        hsize_t size = 0;
        if (H5Dget_chunk_info(ds.get(), space.get(), k, offset.data(), &mask, &addr, &size) < 0) break;
      }
    return;
  }
  Bytes data;
  const bool little = H5Tget_class(type.get()) == H5T_ENUM || H5Tget_order(type.get()) == H5T_ORDER_LE ||
                      element_size(dtype) == 1;
  const haddr_t offset = H5Dget_offset(ds.get());
  if (little && layout == H5D_CONTIGUOUS && offset != HADDR_UNDEF &&
      offset <= w.file->size() && nbytes <= w.file->size() - offset) {
    data = w.file->slice(offset, nbytes);  // as it lies in the file
  } else if (nbytes == 0) {
    data = Bytes::from_vector({});
  } else {
    const uint64_t stored = H5Dget_storage_size(ds.get());
    // libhdf5 1.10 copies a compact dataset's declared size out of its header buffer without checking
    // the buffer holds that much (a heap over-read found by fuzzing): check it here.
    uint64_t file_bytes = 0;
    if (layout == H5D_COMPACT &&
        (__builtin_mul_overflow(numel, static_cast<uint64_t>(H5Tget_size(type.get())), &file_bytes) ||
         stored < file_bytes))
      fail(fmt::format("HDF5 dataset '{}' declares {} bytes but its compact storage holds {} (is the file damaged?)",
                       path, file_bytes, stored));
    // A contiguous dataset's bytes lie in the file: one that claims to end past it is damaged (and
    // its declared size is no reason to allocate anything).
    if (layout == H5D_CONTIGUOUS && offset != HADDR_UNDEF &&
        (offset > w.file->size() || nbytes > w.file->size() - offset))
      fail(fmt::format("HDF5 dataset '{}' declares {} bytes at offset {}, past the end of the file (is it damaged "
                       "or truncated?)",
                       path, nbytes, offset));
    if (nbytes > kBombFloorBytes && nbytes / kMaxExpansion > stored)
      fail(fmt::format("HDF5 dataset '{}' declares {} bytes but stores only {}: refused as a decompression bomb",
                       path, nbytes, stored));
    uint8_t* out = nullptr;
    data = Bytes::uninitialized(nbytes, &out);
    if (layout == H5D_CHUNKED) {
      read_chunked(ds.get(), space.get(), plist.get(), type.get(), shape, out, nbytes, w.file->size(), path);
    } else {
      // Read as little-endian elements of the file's own kind (HDF5 converts a big-endian file).
      Id mem(H5Tcopy(type.get()), H5Tclose);
      if (H5Tget_class(type.get()) != H5T_ENUM) H5Tset_order(mem.get(), H5T_ORDER_LE);
      if (H5Dread(ds.get(), mem.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, out) < 0)
        fail(fmt::format("HDF5 dataset '{}' cannot be read (is the file damaged?)", path));
    }
  }
  w.root.dict().set(w.heap->str(path), contiguous_tensor(*w.heap, path, dtype, shape, data));
}

herr_t visit_link(hid_t group, const char* name, const H5L_info_t* info, void* data) {
  auto& w = *static_cast<Walk*>(data);
  try {
    // A damaged file can link a group into itself: H5Lvisit then walks ever longer paths. Keras'
    // paths are a few levels deep; one this deep, or this many links, is not a weights file.
    const std::string_view path(name);
    if (++w.links > kMaxLinks || path.size() > kMaxPathBytes ||
        std::count(path.begin(), path.end(), '/') > kMaxDepth)
      fail("the HDF5 file's groups nest deeper, or hold more links, than any weights file (is it damaged?)");
    if (info->type != H5L_TYPE_HARD)
      fail(fmt::format("HDF5 link '{}' is {} link; onnxify reads only what the file itself holds", readable(name),
                       info->type == H5L_TYPE_SOFT ? "a soft" : "an external"));
    H5O_info_t oi;
#if H5_VERSION_GE(1, 12, 0)
    if (H5Oget_info_by_name3(group, name, &oi, H5O_INFO_BASIC, H5P_DEFAULT) < 0)
#else
    if (H5Oget_info_by_name2(group, name, &oi, H5O_INFO_BASIC, H5P_DEFAULT) < 0)
#endif
      fail(fmt::format("HDF5 object '{}' cannot be read (is the file damaged?)", readable(name)));
    if (oi.type == H5O_TYPE_DATASET) add_dataset(w, group, name);
    return 0;
  } catch (const Diagnostic& d) {
    w.error = d.message();
    return -1;
  }
}

bool is_hdf5(const Bytes& b) {
  static constexpr uint8_t kSignature[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
  return b.size() >= 8 && std::memcmp(b.data(), kSignature, 8) == 0;
}

}  // namespace

bool looks_like_hdf5(const Bytes& file) { return is_hdf5(file); }

bool looks_like_keras_archive(const Bytes& file) {
  if (!looks_like_zip(file)) return false;
  try {
    ZipArchive zip(file);
    return zip.find("config.json") && !zip.find("data.pkl");
  } catch (const Diagnostic&) {
    return false;
  }
}

// HDF5 opens the bytes in place through the core driver: the callbacks below hand it our buffer
// instead of a copy, refuse to grow it, and free nothing, so the mapping stays read-only and owned by
// the caller. (H5LTopen_file_image does the same but, in libhdf5 1.10, leaks its callback state on
// every open.)
struct Image {
  void* data;
  size_t size;
};

void* image_malloc(size_t size, H5FD_file_image_op_t, void* udata) {
  auto* im = static_cast<Image*>(udata);
  return size == im->size ? im->data : nullptr;
}
void* image_memcpy(void* dest, const void* src, size_t size, H5FD_file_image_op_t, void*) {
  if (dest != src) return nullptr;  // every "copy" is of the image onto itself
  (void)size;
  return dest;
}
void* image_realloc(void*, size_t, H5FD_file_image_op_t, void*) { return nullptr; }
herr_t image_free(void*, H5FD_file_image_op_t, void*) { return 0; }
void* udata_copy(void* udata) { return udata; }
herr_t udata_free(void*) { return 0; }

// `im` must outlive the returned file: HDF5 keeps the pointer until the file is closed.
hid_t open_image(Image& im) {
  Id fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
  if (!fapl.ok() || H5Pset_fapl_core(fapl.get(), 64 * 1024, /*backing_store=*/0) < 0) return -1;
  H5FD_file_image_callbacks_t cb{&image_malloc, &image_memcpy, &image_realloc, &image_free,
                                 &udata_copy,   &udata_free,   &im};
  if (H5Pset_file_image_callbacks(fapl.get(), &cb) < 0) return -1;
  if (H5Pset_file_image(fapl.get(), im.data, im.size) < 0) return -1;
  // Closing the file closes whatever HDF5 still holds open in it, even after a failed read, so no
  // file outlives `im`.
  if (H5Pset_fclose_degree(fapl.get(), H5F_CLOSE_STRONG) < 0) return -1;
  // The name only labels the image in HDF5's messages; nothing is opened on disk.
  return H5Fopen("keras-weights-image", H5F_ACC_RDONLY, fapl.get());
}

// Keras 2's format (`model.save("m.h5")`, `save_weights("w.h5")`; Keras 3 still writes and reads it):
// the weights group (the file, or its `model_weights`) lists `layer_names`, each layer's group its
// `weight_names`, and a weight's dataset is GROUP/LAYER/WEIGHT_NAME. Which model variable each is,
// is decided by order (Keras' legacy loader pairs the file's layers that have weights with the
// model's, in order), so that order goes to the binder: the root dict's "keras_legacy" attribute,
// a list of (layer group, [dataset paths in weight order]) in layer_names order, with the model's
// own variables (`top_level_model_weights`) last when the file has them.
void read_legacy_layout(Walk& w, hid_t file) {
  std::string base;
  std::optional<std::vector<std::string>> layers = string_list_attr(file, "layer_names");
  if (!layers && H5Lexists(file, "model_weights", H5P_DEFAULT) > 0) {
    Id g(H5Gopen2(file, "model_weights", H5P_DEFAULT), H5Gclose);
    if (g.ok()) layers = string_list_attr(g.get(), "layer_names");
    base = "model_weights/";
  }
  if (!layers) return;
  std::vector<Value> entries;
  auto add_group = [&](const std::string& layer, bool required) {
    const std::string group = base + layer;
    if (H5Lexists(file, group.c_str(), H5P_DEFAULT) <= 0) {
      if (!required) return;
      fail(fmt::format("the Keras 2 weights list layer '{}' but have no group '{}'", readable(layer), readable(group)));
    }
    Id g(H5Gopen2(file, group.c_str(), H5P_DEFAULT), H5Gclose);
    if (!g.ok()) fail(fmt::format("the Keras 2 weights' layer group '{}' cannot be opened", readable(group)));
    auto names = string_list_attr(g.get(), "weight_names");
    if (!names) fail(fmt::format("the Keras 2 weights' layer group '{}' has no weight_names list", readable(group)));
    if (w.metadata_only) return;
    std::vector<Value> paths;
    for (const std::string& n : *names) paths.push_back(w.heap->str(readable(group + "/" + n)));
    entries.push_back(w.heap->tuple({w.heap->str(readable(group)), w.heap->list(std::move(paths))}));
  };
  for (const std::string& layer : *layers) add_group(layer, true);
  add_group("top_level_model_weights", false);
  if (!w.metadata_only) w.root.dict().attrs.emplace_back("keras_legacy", w.heap->list(std::move(entries)));
}

// Every link of the file through visit_link (datasets added to w.root, or only checked), then the
// legacy format's layer lists.
void walk(Walk& w) {
  Image im{const_cast<uint8_t*>(w.file->data()), w.file->size()};
  Id f(open_image(im), H5Fclose);
  if (!f.ok()) fail("the HDF5 file cannot be opened (is it damaged or truncated?)");
  if (H5Lvisit(f.get(), H5_INDEX_NAME, H5_ITER_INC, &visit_link, &w) < 0)
    fail(w.error.empty() ? "the HDF5 file's groups cannot be read (is it damaged?)" : w.error);
  read_legacy_layout(w, f.get());
}

// libhdf5 walks a damaged file's metadata without bounds: a 12 KB file found by fuzzing makes it
// allocate until the machine has no memory left (newer libhdf5 too, through h5py). So the walk runs
// first, metadata only, in a forked child with an address-space and CPU budget; the file is read
// here only when that walk ends there, as it then ends here (same library, same bytes). A child that
// ends on a diagnostic passes it back; one stopped by its budget or a signal is a clear error.
constexpr uint64_t kMetadataBudgetBytes = uint64_t{2} << 30;
constexpr rlim_t kMetadataCpuSeconds = 60;

void walk_metadata_in_child(const Bytes& h5, Heap& heap) {
#ifdef ONNXIFY_ASAN
  // AddressSanitizer reserves terabytes of address space, so an address-space budget cannot work
  // under it: sanitizer builds (tests, fuzzing) walk once, unsandboxed (libFuzzer's -rss_limit_mb
  // catches the unbounded allocation there).
  (void)h5;
  (void)heap;
  return;
#endif
  int fds[2];
  if (::pipe(fds) != 0) return;  // no sandbox to be had: the walk below is the only one
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return;
  }
  if (pid == 0) {
    ::close(fds[0]);
    long pages = 0;
    if (FILE* f = std::fopen("/proc/self/statm", "r")) {
      if (std::fscanf(f, "%ld", &pages) != 1) pages = 0;
      std::fclose(f);
    }
    const rlim_t now = static_cast<rlim_t>(pages) * static_cast<rlim_t>(::sysconf(_SC_PAGESIZE));
    rlimit as{now + kMetadataBudgetBytes, now + kMetadataBudgetBytes};
    rlimit cpu{kMetadataCpuSeconds, kMetadataCpuSeconds};
    ::setrlimit(RLIMIT_AS, &as);
    ::setrlimit(RLIMIT_CPU, &cpu);
    int status = 0;
    try {
      Walk w{&h5, &heap, Value(), "", 0, /*metadata_only=*/true};
      walk(w);
    } catch (const Diagnostic& d) {
      const std::string m = d.message();
      status = write_fully(fds[1], m.data(), m.size()) ? 1 : 3;
    } catch (...) {
      status = 2;  // out of memory in our own code, or a library error
    }
    ::_exit(status);
  }
  ::close(fds[1]);
  std::string message;
  read_to_end(fds[0], &message);
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 1 && !message.empty()) fail(message);
  fail(fmt::format("libhdf5 could not read this HDF5 file's structure within {} GiB and {} s of CPU ({}): the file "
                   "is damaged or made to exhaust the reader",
                   kMetadataBudgetBytes >> 30, kMetadataCpuSeconds,
                   WIFSIGNALED(status) ? fmt::format("stopped by signal {}", WTERMSIG(status))
                                       : fmt::format("exit status {}", WEXITSTATUS(status))));
}

Value load_keras_h5(const Bytes& file, Heap& heap) {
  Bytes h5 = file;
  if (!is_hdf5(file)) {
    ZipArchive zip(file);
    const ZipEntry* e = zip.find(kKerasWeights);
    if (!e)
      fail(fmt::format("a .keras archive without {} (it holds the weights; an archive saved with another weights "
                       "format is not read)",
                       kKerasWeights));
    h5 = zip.read(*e, /*verify_stored_crc=*/false);
    if (!is_hdf5(h5)) fail(fmt::format("the archive's {} is not an HDF5 file", kKerasWeights));
  }
  init_library();
  walk_metadata_in_child(h5, heap);
  Walk w{&h5, &heap, heap.dict(), ""};
  walk(w);
  return w.root;
}

}  // namespace onnxify::weights
