# `format` rewrites the sources with clang-format; `format-check` fails when any file would change.
find_program(CLANG_FORMAT_EXE NAMES clang-format clang-format-14)
if(CLANG_FORMAT_EXE)
  add_custom_target(format
    COMMAND ${CMAKE_COMMAND} -DCLANG_FORMAT=${CLANG_FORMAT_EXE} -DROOT=${CMAKE_SOURCE_DIR} -DMODE=fix
            -P ${CMAKE_SOURCE_DIR}/cmake/RunClangFormat.cmake
    COMMENT "clang-format: rewriting sources")
  add_custom_target(format-check
    COMMAND ${CMAKE_COMMAND} -DCLANG_FORMAT=${CLANG_FORMAT_EXE} -DROOT=${CMAKE_SOURCE_DIR} -DMODE=check
            -P ${CMAKE_SOURCE_DIR}/cmake/RunClangFormat.cmake
    COMMENT "clang-format: checking sources")
endif()
