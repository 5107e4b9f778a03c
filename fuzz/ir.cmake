# Fuzz targets of src/ir (see scripts/fuzz.sh).
# The libraries under test need coverage instrumentation too (onnxify_fuzzer only instruments the
# target's own file); -fsanitize=fuzzer-no-link adds it without libFuzzer's main.
target_compile_options(onnxify_ir PRIVATE -fsanitize=fuzzer-no-link)
target_compile_options(onnxify_support PRIVATE -fsanitize=fuzzer-no-link)
onnxify_fuzzer(ir_parse ${CMAKE_CURRENT_SOURCE_DIR}/ir_parse.cpp LIBS onnxify_ir)
