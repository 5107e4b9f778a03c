# Fuzz targets of src/ir (see scripts/fuzz.sh).
onnxify_fuzzer(ir_parse ${CMAKE_CURRENT_SOURCE_DIR}/ir_parse.cpp LIBS onnxify_ir)
