# The evaluator on arbitrary source (small budgets): any input must end in a result or a
# Diagnostic, never a crash, a hang or a sanitizer report.
onnxify_fuzzer(eval_fuzz ${CMAKE_CURRENT_LIST_DIR}/eval_fuzz.cpp LIBS onnxify_eval)
