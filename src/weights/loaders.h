// The file formats, each read into a Heap and a root Value, and the storage plumbing they
// share. Internal to src/weights; Checkpoint (checkpoint.cpp) picks the loader from the file's
// first bytes. Each throws Diagnostic without a file name; Checkpoint adds it.
#pragma once

#include <cstdint>
#include <string>

#include "support/bytes.h"
#include "weights/value.h"

namespace onnxify::weights {

// torch.save's zip container (PyTorch >= 1.6).
Value load_torch_zip(const Bytes& file, Heap& heap);
// torch.save(..., _use_new_zipfile_serialization=False) and files from PyTorch < 1.6.
Value load_torch_legacy(const Bytes& file, Heap& heap);
// Hugging Face safetensors: a dict of name -> tensor.
Value load_safetensors(const Bytes& file, Heap& heap);
// Keras' HDF5 weights, alone (.weights.h5) or in a .keras archive: a dict of dataset path -> tensor.
Value load_keras_h5(const Bytes& file, Heap& heap);
bool looks_like_hdf5(const Bytes& file);
// A zip with a config.json at its root, as keras.Model.save writes it (torch.save's never has one).
bool looks_like_keras_archive(const Bytes& file);
// A TensorFlow checkpoint's PREFIX.index (a LevelDB-format table: its footer's magic number); the
// tensors are read from PREFIX.data-* beside it.
Value load_tf_bundle(const Bytes& index, const std::string& index_path, Heap& heap);
bool looks_like_tf_bundle_index(const Bytes& file);

// A persistent id for a storage, as torch.save writes it:
//   zip:    ('storage', storage_type, key, location, numel)
//   legacy: ('storage', storage_type, root_key, location, numel, view_metadata)
struct StorageRef {
  DType dtype = DType::UInt8;
  std::string key;
  int64_t numel = 0;
  uint64_t nbytes = 0;
  Value view_metadata;  // legacy only: None or (view_key, offset, size)
};
// Checks and unpacks a persistent id with `fields` items. Throws Diagnostic.
StorageRef parse_storage_ref(const Value& pid, size_t fields);

// A row-major tensor over `data` (its own storage, already loaded), as the formats that store each
// tensor's bytes whole make them (safetensors, Keras HDF5, TensorFlow bundles).
Value contiguous_tensor(Heap& heap, const std::string& key, DType dtype, const std::vector<int64_t>& shape,
                        Bytes data);

// Resolves legacy storage views, gives every tensor its storage's bytes, and checks that each
// tensor lies inside its storage. Throws Diagnostic naming the first tensor that does not.
void bind_tensors(Heap& heap);

}  // namespace onnxify::weights
