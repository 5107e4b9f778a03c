// Fuzzes whole checkpoint files as `onnxify weights` reads them: sniffing, the zip container,
// the legacy pickle stream, safetensors, Keras HDF5, TensorFlow checkpoint indexes, --key selection,
// and checksums of what was selected. The input is named as a TensorFlow checkpoint index beside a
// real data shard (fuzz/weights/tf-mlp.data-*, the data of seed tf-mlp.index; scripts/fuzz.sh runs
// from the repository root), so mutated index entries reach the data file and its checksums.
#include <cstdint>

#include "support/diagnostic.h"
#include "weights/weights.h"

using namespace onnxify;
using namespace onnxify::weights;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    Checkpoint c = Checkpoint::from_bytes(Bytes::copy_of(data, size), "fuzz/weights/tf-mlp.index");
    for (const char* key : {"", ".", "state_dict", "model.ema", "0"}) {
      try {
        StateDict sd = c.select(key);
        (void)checksums(sd.tensors, 1);
        for (const auto& t : sd.tensors) (void)t.tensor.contiguous_bytes();
      } catch (const Diagnostic&) {
      }
    }
  } catch (const Diagnostic&) {
  }
  return 0;
}
