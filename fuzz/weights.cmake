# libFuzzer targets for src/weights (scripts/fuzz.sh NAME SECONDS; seeds in fuzz/seeds/NAME).
#   weights_unpickle_fuzzer    raw bytes into the data-only unpickler (every opcode, globals, tensors)
#   weights_checkpoint_fuzzer  whole files: format sniffing, zip, legacy stream, safetensors, --key
#                              selection and checksums
onnxify_fuzzer(weights_unpickle_fuzzer weights/unpickle_fuzzer.cpp LIBS onnxify_weights)
onnxify_fuzzer(weights_checkpoint_fuzzer weights/checkpoint_fuzzer.cpp LIBS onnxify_weights)
