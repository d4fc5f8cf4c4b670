# The project's options and build settings, each set once here, and the interface targets that
# every project target links: language options and warnings.
include(CheckCXXCompilerFlag)

option(MHAVIZ_WARNINGS_AS_ERRORS "Treat compiler warnings as errors" OFF)
option(MHAVIZ_SIMD "Build AVX2/AVX-512 kernels chosen at run time, and libxsmm's products" ON)
option(MHAVIZ_SANITIZE_ADDRESS "Build with AddressSanitizer and UBSan" OFF)
option(MHAVIZ_SANITIZE_THREAD "Build with ThreadSanitizer" OFF)
option(MHAVIZ_BUILD_UI "Build the Qt window (needs Qt 6 and QCustomPlot)" ON)
option(MHAVIZ_BUILD_TESTS "Build the tests" ON)
option(MHAVIZ_FUZZ "Build the libFuzzer targets in tests/fuzz (clang only)" OFF)

# C++20 without compiler extensions for every target (Qt's and the vendored ones included), and
# compile_commands.json for tools (clang-tidy, editors).
set(CMAKE_CXX_STANDARD 20)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_CXX_EXTENSIONS OFF)
set(CMAKE_EXPORT_COMPILE_COMMANDS ON)

# ccache, when it is installed, in front of every compiler call (a rebuild after switching
# branches, or of a second checkout, takes objects it has already made). MHAVIZ_CCACHE=OFF
# builds without it.
option(MHAVIZ_CCACHE "Compile through ccache when it is installed" ON)
find_program(MHAVIZ_CCACHE_PROGRAM ccache)
# The sloppiness lets it cache files compiled with a precompiled header (PrecompiledHeaders.cmake).
if(MHAVIZ_CCACHE AND MHAVIZ_CCACHE_PROGRAM AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  set(CMAKE_CXX_COMPILER_LAUNCHER
      env CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
      ${MHAVIZ_CCACHE_PROGRAM})
endif()

add_library(mhaviz_options INTERFACE)
add_library(mhaviz::options ALIAS mhaviz_options)

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
if(MHAVIZ_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "MHAVIZ_FUZZ needs clang (libFuzzer); configure with --preset fuzz")
  endif()
  target_compile_options(mhaviz_options INTERFACE
    -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer
    -fno-sanitize-recover=undefined)
  target_link_options(mhaviz_options INTERFACE -fsanitize=address,undefined)
endif()
