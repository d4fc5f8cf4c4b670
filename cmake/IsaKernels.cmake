# The core's per-instruction-set kernels (core/src/kernels/exp_row*.{hpp,cpp}).
#
# Every target is compiled for the compiler's x86-64 baseline (or MHAVIZ_MARCH, when the person
# building chooses one), so that the programs run on any x86-64 CPU; no option reads the CPU of
# the machine that builds. The loop where wider vectors pay most is compiled once per
# instruction set below and chosen at run time from what the CPU reports (exp_row.cpp).
# Each variant is an object library of its own: exp_row_isa.cpp renames Eigen and its own
# namespace per variant, and the test isa-kernel-symbols checks that no symbol an object defines
# could be taken by the linker for another object's copy.

set(MHAVIZ_ISA_VARIANTS x86_64)
if(MHAVIZ_SIMD AND CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64")
  check_cxx_compiler_flag("-mavx2 -mfma" MHAVIZ_COMPILER_HAS_AVX2)
  check_cxx_compiler_flag("-mavx512f -mavx512dq" MHAVIZ_COMPILER_HAS_AVX512)
  if(MHAVIZ_COMPILER_HAS_AVX2)
    list(APPEND MHAVIZ_ISA_VARIANTS avx2)
  endif()
  if(MHAVIZ_COMPILER_HAS_AVX512)
    list(APPEND MHAVIZ_ISA_VARIANTS avx512)
  endif()
endif()
set(_isa_flags_x86_64 "")
set(_isa_flags_avx2 -mavx2 -mfma)
# GCC 12 reports its own AVX-512 intrinsics' headers (a known false positive of
# -Wmaybe-uninitialized on the _mm512 "undefined" operands Eigen's packets use).
set(_isa_flags_avx512 -mavx2 -mfma -mavx512f -mavx512dq
    $<$<CXX_COMPILER_ID:GNU>:-Wno-maybe-uninitialized>)
message(STATUS "mhaviz: exp kernels for ${MHAVIZ_ISA_VARIANTS}, chosen at run time")

# mhaviz_add_isa_kernels(TARGET): builds the variants into TARGET (the core).
function(mhaviz_add_isa_kernels target)
  set(_objects "")
  foreach(isa IN LISTS MHAVIZ_ISA_VARIANTS)
    add_library(mhaviz_exp_${isa} OBJECT ${PROJECT_SOURCE_DIR}/core/src/kernels/exp_row_isa.cpp
                ${PROJECT_SOURCE_DIR}/core/src/kernels/fold_row_isa.cpp)
    target_compile_definitions(mhaviz_exp_${isa} PRIVATE MHAVIZ_ISA=${isa})
    target_compile_options(mhaviz_exp_${isa} PRIVATE ${_isa_flags_${isa}})
    target_link_libraries(mhaviz_exp_${isa} PRIVATE Eigen3::Eigen mhaviz::options mhaviz::warnings)
    target_sources(${target} PRIVATE $<TARGET_OBJECTS:mhaviz_exp_${isa}>)
    string(TOUPPER ${isa} _upper)
    target_compile_definitions(${target} PRIVATE MHAVIZ_ISA_${_upper}=1)
    list(APPEND _objects $<TARGET_OBJECTS:mhaviz_exp_${isa}>)
  endforeach()
  set(MHAVIZ_ISA_OBJECTS ${_objects} PARENT_SCOPE)
endfunction()
