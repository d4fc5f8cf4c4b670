# Interface targets that every project target links: language options and warnings.
include(CheckCXXCompilerFlag)

add_library(mhaviz_options INTERFACE)
add_library(mhaviz::options ALIAS mhaviz_options)
target_compile_features(mhaviz_options INTERFACE cxx_std_20)

add_library(mhaviz_warnings INTERFACE)
add_library(mhaviz::warnings ALIAS mhaviz_warnings)
target_compile_options(mhaviz_warnings INTERFACE
  -Wall -Wextra -Wshadow -Wconversion -Wold-style-cast -Wnon-virtual-dtor -Wpedantic)
if(MHAVIZ_WARNINGS_AS_ERRORS)
  target_compile_options(mhaviz_warnings INTERFACE -Werror)
endif()

# The instruction set every target is compiled for: the compiler's x86-64 baseline, unless the
# person building names one (e.g. -DMHAVIZ_MARCH=x86-64-v3 or native for a build that only
# runs on their own kind of CPU). Wider instructions where they pay come from kernels chosen at
# run time (cmake/IsaKernels.cmake, libxsmm).
set(MHAVIZ_MARCH "" CACHE STRING "-march for every target (empty: the compiler's default)")
if(MHAVIZ_MARCH)
  target_compile_options(mhaviz_options INTERFACE -march=${MHAVIZ_MARCH})
endif()

if(MHAVIZ_SANITIZE_ADDRESS)
  target_compile_options(mhaviz_options INTERFACE
    -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  target_link_options(mhaviz_options INTERFACE -fsanitize=address,undefined)
endif()
if(MHAVIZ_SANITIZE_THREAD)
  target_compile_options(mhaviz_options INTERFACE -fsanitize=thread -fno-omit-frame-pointer)
  target_link_options(mhaviz_options INTERFACE -fsanitize=thread)
endif()

# libFuzzer targets (tests/fuzz): clang only. Every target, the core included, gets the
# fuzzer's coverage instrumentation plus ASan and UBSan, so a finding in the core is reported
# where it happens; the fuzz targets themselves add -fsanitize=fuzzer (libFuzzer's main).
option(MHAVIZ_FUZZ "Build the libFuzzer targets in tests/fuzz (clang only)" OFF)
if(MHAVIZ_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "MHAVIZ_FUZZ needs clang (libFuzzer); configure with --preset fuzz")
  endif()
  target_compile_options(mhaviz_options INTERFACE
    -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer
    -fno-sanitize-recover=undefined)
  target_link_options(mhaviz_options INTERFACE -fsanitize=address,undefined)
endif()
