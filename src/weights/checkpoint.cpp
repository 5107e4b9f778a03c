// Checkpoint: map the file, tell the format from its first bytes, run that format's loader, bind
// tensors to their storages. The loaders throw plain Diagnostics; this is where the file name goes
// on, so every message reads "FILE: error: …".
#include <fmt/core.h>

#include <cstring>

#include "weights/loaders.h"
#include "weights/weights.h"
#include "weights/zip.h"

namespace onnxify::weights {

std::string_view format_name(Format f) {
  switch (f) {
    case Format::TorchZip:
      return "torch zip";
    case Format::TorchLegacy:
      return "torch legacy";
    case Format::Safetensors:
      return "safetensors";
    case Format::Keras:
      return "keras";
    case Format::TFCheckpoint:
      return "tensorflow checkpoint";
  }
  return "?";
}

namespace {

Format sniff(const Bytes& file) {
  const uint8_t* d = file.data();
  const size_t n = file.size();
  if (n == 0) throw Diagnostic::error("the file is empty: not a checkpoint");
  if (looks_like_hdf5(file) || looks_like_keras_archive(file)) return Format::Keras;
  if (looks_like_zip(file)) return Format::TorchZip;
  if (looks_like_tf_bundle_index(file)) return Format::TFCheckpoint;
  // Legacy files start with the magic number pickled at protocol >= 2 (PROTO, LONG1) or, from
  // pickle_protocol 0/1, as a text LONG.
  if (n >= 2 && d[0] == 0x80 && d[1] >= 2 && d[1] <= 5) return Format::TorchLegacy;
  static constexpr std::string_view kTextMagic = "L119547037146038801333356";
  if (n >= kTextMagic.size() && std::memcmp(d, kTextMagic.data(), kTextMagic.size()) == 0)
    return Format::TorchLegacy;
  if (n >= 262 && std::memcmp(d + 257, "ustar", 5) == 0)
    throw Diagnostic::error("a tar archive: the tar checkpoint format of PyTorch < 0.4 is not supported");
  if (n >= 9 && d[8] == '{') return Format::Safetensors;
  std::string head;
  for (size_t i = 0; i < std::min<size_t>(n, 8); ++i) head += fmt::format("{}{:02x}", i ? " " : "", d[i]);
  throw Diagnostic::error(
      fmt::format("not a PyTorch checkpoint, safetensors, Keras weights file or TensorFlow checkpoint index (it starts with "
                  "bytes {}; expected a zip archive, a torch.save pickle, a safetensors header, an HDF5 file or a "
                  "checkpoint table)",
                  head));
}

}  // namespace

Checkpoint Checkpoint::from_bytes(Bytes bytes, const std::string& name) {
  Checkpoint c;
  c.path_ = name;
  c.file_ = std::move(bytes);
  c.heap_ = std::make_shared<Heap>();
  try {
    c.format_ = sniff(c.file_);
    switch (c.format_) {
      case Format::TorchZip:
        c.root_ = load_torch_zip(c.file_, *c.heap_);
        break;
      case Format::TorchLegacy:
        c.root_ = load_torch_legacy(c.file_, *c.heap_);
        break;
      case Format::Safetensors:
        c.root_ = load_safetensors(c.file_, *c.heap_);
        break;
      case Format::Keras:
        c.root_ = load_keras_h5(c.file_, *c.heap_);
        break;
      case Format::TFCheckpoint:
        c.root_ = load_tf_bundle(c.file_, name, *c.heap_);
        break;
    }
    bind_tensors(*c.heap_);
  } catch (Diagnostic& d) {
    d.with_file(name);
    throw;
  }
  return c;
}

Checkpoint Checkpoint::open(const std::string& path) {
  std::shared_ptr<MappedFile> file = MappedFile::open(path);
  return from_bytes(file->bytes(), path);
}

const Tensor* StateDict::find(std::string_view name) const {
  auto it = index_.find(std::string(name));
  return it == index_.end() ? nullptr : &tensors[it->second].tensor;
}

}  // namespace onnxify::weights
