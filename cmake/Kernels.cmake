# The kernel behind the core's single-precision products (core/src/kernels/sgemm.hpp).
# libxsmm (Debian's libxsmm-dev) generates kernels for this CPU at run time (AVX2, AVX-512);
# it is used when MHAVIZ_SIMD is on and it is found. The portable preset and the sanitizer and
# fuzz builds keep every product on Eigen: the sanitizers cannot see inside generated code,
# so they check the Eigen path instead.
set(MHAVIZ_SGEMM_LIBXSMM FALSE)
if(MHAVIZ_SIMD AND NOT MHAVIZ_SANITIZE_ADDRESS AND NOT MHAVIZ_SANITIZE_THREAD AND NOT MHAVIZ_FUZZ)
  find_path(LIBXSMM_INCLUDE_DIR libxsmm.h)
  find_library(LIBXSMM_LIBRARY NAMES libxsmm.a xsmm)
  find_library(LIBXSMM_NOBLAS_LIBRARY NAMES libxsmmnoblas.a xsmmnoblas)
  if(LIBXSMM_INCLUDE_DIR AND LIBXSMM_LIBRARY AND LIBXSMM_NOBLAS_LIBRARY)
    set(MHAVIZ_SGEMM_LIBXSMM TRUE)
    find_package(Threads REQUIRED)
    add_library(mhaviz_libxsmm INTERFACE)
    target_include_directories(mhaviz_libxsmm SYSTEM INTERFACE ${LIBXSMM_INCLUDE_DIR})
    # The one place that says the kernel is built in: whatever links mhaviz_libxsmm (the core,
    # its kernel tests, the kernels benchmark) compiles core/src/kernels/sgemm.hpp's libxsmm path.
    target_compile_definitions(mhaviz_libxsmm INTERFACE MHAVIZ_SGEMM_KERNEL=1)
    # libxsmm refers to BLAS symbols that libxsmmnoblas provides as stubs (no BLAS is linked):
    # the stubs come after it.
    target_link_libraries(mhaviz_libxsmm INTERFACE
      ${LIBXSMM_LIBRARY} ${LIBXSMM_NOBLAS_LIBRARY} Threads::Threads ${CMAKE_DL_LIBS} rt m)
    message(STATUS "mhaviz: single-precision products on libxsmm (${LIBXSMM_LIBRARY})")
  else()
    message(STATUS "mhaviz: libxsmm not found (install libxsmm-dev); products on Eigen")
  endif()
else()
  message(STATUS "mhaviz: products on Eigen (portable, sanitizer or fuzz build)")
endif()
