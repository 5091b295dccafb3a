# Embeds data files (rules, templates, CSS) into the binary as C arrays.
# The generated sources live in the build tree and are never committed.
#   sdperf_embed(OUT_VAR NAME file...) -> a .c file defining
#   const struct embedded_file NAME[] = {{"rel/path", data, len}, ..., {0}}
function(sdperf_embed out_var name)
  set(out "${CMAKE_CURRENT_BINARY_DIR}/${name}.c")
  # a CMake list would be split by the shell: pass it joined with '|'
  string(REPLACE ";" "|" files "${ARGN}")
  add_custom_command(
    OUTPUT "${out}"
    COMMAND ${CMAKE_COMMAND} -DOUT=${out} -DNAME=${name}
            -DBASE=${CMAKE_SOURCE_DIR} "-DFILES=${files}"
            -P ${CMAKE_SOURCE_DIR}/cmake/EmbedGen.cmake
    DEPENDS ${ARGN} ${CMAKE_SOURCE_DIR}/cmake/EmbedGen.cmake
    COMMENT "Embedding ${name}"
    VERBATIM)
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()
