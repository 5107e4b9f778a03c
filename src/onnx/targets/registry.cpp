// The target registry: every profile, by name.
#include "onnx/targets/target.h"

namespace onnxify::targets {

const std::vector<const TargetProfile*>& all_targets() {
  static const std::vector<const TargetProfile*> all = {&kOnnxRuntime, &kTensorRT, &kGeneric};
  return all;
}

const TargetProfile* find_target(std::string_view name) {
  for (const TargetProfile* t : all_targets())
    if (t->name == name) return t;
  return nullptr;
}

std::vector<std::string> standard_pipeline() {
  // Fold first so fusions see constants (BatchNorm statistics, Pad amounts, shapes); the fusions
  // can expose more folding and duplicates, so fold and cse run again before dce sweeps up.
  // sink_transpose moves layout Transposes next to their inverses for cancel_transpose_reshape;
  // what that brings next to a Conv (a channels-last BatchNorm written out, its constants re-laid out
  // by nodes fold evaluates, the Transposes it leaves unused swept by dce) fuse_batchnorm then folds.
  return {"fold", "cse", "fuse_batchnorm", "fuse_pad", "sink_transpose", "cancel_transpose_reshape", "fold", "dce",
          "fuse_batchnorm", "fuse_matmul_add", "fold", "cse", "dce"};
}

}  // namespace onnxify::targets
