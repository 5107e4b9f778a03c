# onnxify_embed_python(OUT_CPP TABLE ROOT FILE...)
# Generates OUT_CPP defining
#   const onnxify::eval::EmbeddedModule TABLE[];  const size_t TABLE_count;
# with one entry per .py file under ROOT: the module name is the file's dotted path from ROOT
# (a/b/__init__.py is package a.b), the source is compiled into the binary. Other stages (the torch
# prelude) use this too; the interpreter registers a table with Interp::add_embedded.
set(ONNXIFY_EMBED_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/embed_python.cmake)
function(onnxify_embed_python out_cpp table root)
  add_custom_command(
    OUTPUT ${out_cpp}
    COMMAND ${CMAKE_COMMAND} -DOUT=${out_cpp} -DTABLE=${table} -DROOT=${root} "-DFILES=${ARGN}"
            -P ${ONNXIFY_EMBED_SCRIPT}
    DEPENDS ${ARGN} ${ONNXIFY_EMBED_SCRIPT}
    COMMENT "Embedding Python sources (${table})"
    VERBATIM)
endfunction()
