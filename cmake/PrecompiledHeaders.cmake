# Precompiled headers. Most of the time a ui file takes to compile goes into parsing Qt's and
# QCustomPlot's headers (a file of the window reads about 300,000 lines of them, 6 to 8 of its
# 8 to 10 CPU seconds). Each set below is parsed once per build directory, by a target of its
# own, and every target of its kind reuses it:
#   widgets  <QtWidgets>: the ui layers that use widgets but do not draw maps, and their QtTest
#            executables
#   plot     widgets + QCustomPlot: the layers that draw (render) and those above them, their
#            QtTest executables, the gallery and the window benchmark
# The layers that use only QtCore or QtGui, the core and the programs' two main files take none.
# QtTest stays out: Qt6::Test defines QT_TESTCASE_BUILDDIR as each test's own folder, and GCC
# does not use a header made under another folder's value.
# A precompiled header only saves parsing: what a file may include is still decided by its
# layer's arrows (cmake/layers.txt) and checked by the `layers` test.
# MHAVIZ_PCH=OFF compiles without them.
option(MHAVIZ_PCH "Precompile the Qt and QCustomPlot headers" ON)

set(_mhaviz_pch_anchor ${PROJECT_BINARY_DIR}/pch/anchor.cpp)
file(CONFIGURE OUTPUT ${_mhaviz_pch_anchor}
     CONTENT "// The translation unit that the precompiled headers are built with.\n")

# The target that builds one set of precompiled headers. A precompiled header is used only where
# it was made with the same options (GCC checks, e.g. -Wpedantic changes the feature macros), so
# it is compiled with the options and warnings of every project target.
function(_mhaviz_pch_target name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "HEADERS;LINK")
  add_library(${name} OBJECT ${_mhaviz_pch_anchor})
  set_target_properties(${name} PROPERTIES AUTOMOC OFF)
  target_link_libraries(${name} PRIVATE ${arg_LINK} mhaviz::options mhaviz::warnings)
  target_precompile_headers(${name} PRIVATE ${arg_HEADERS})
endfunction()

if(MHAVIZ_PCH AND MHAVIZ_BUILD_UI)
  _mhaviz_pch_target(mhaviz_pch_widgets HEADERS <QtWidgets> LINK Qt6::Widgets)
  _mhaviz_pch_target(mhaviz_pch_plot HEADERS <QtWidgets> <qcustomplot.h>
                     LINK Qt6::Widgets QCustomPlotQt6::QCustomPlotQt6)
endif()

# mhaviz_use_pch(<target> widgets|plot): <target> reuses that set, when they are built. It must
# link what the set includes (Qt Widgets; QCustomPlot for plot). The set is built before any of
# the target's files (the Makefile generator does not order them by itself).
function(mhaviz_use_pch target kind)
  if(TARGET mhaviz_pch_${kind})
    target_precompile_headers(${target} REUSE_FROM mhaviz_pch_${kind})
    add_dependencies(${target} mhaviz_pch_${kind})
  endif()
endfunction()
