# Script mode: cmake -DCLANG_FORMAT=... -DROOT=... -DMODE=fix|check -P RunClangFormat.cmake
file(GLOB_RECURSE _sources
  ${ROOT}/app/*.cpp ${ROOT}/core/*.cpp ${ROOT}/core/*.hpp ${ROOT}/ui/*.cpp ${ROOT}/ui/*.hpp
  ${ROOT}/tests/*.cpp ${ROOT}/tests/*.hpp)
if(MODE STREQUAL "fix")
  execute_process(COMMAND ${CLANG_FORMAT} -i ${_sources} COMMAND_ERROR_IS_FATAL ANY)
else()
  execute_process(COMMAND ${CLANG_FORMAT} --dry-run --Werror ${_sources} RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "Some files are not formatted; run `cmake --build build --target format`.")
  endif()
endif()
