# The lexer + parser + dump on arbitrary bytes (scripts/fuzz.sh syntax_fuzzer SECONDS).
onnxify_fuzzer(syntax_fuzzer ${CMAKE_CURRENT_LIST_DIR}/syntax_fuzzer.cpp LIBS onnxify_syntax)
# Coverage feedback from the code under test, not only from the harness.
target_compile_options(onnxify_syntax PRIVATE -fsanitize=fuzzer-no-link)
