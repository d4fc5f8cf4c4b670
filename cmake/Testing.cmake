# How tests are registered: every ctest entry gets its timeout here, and the ones that open Qt
# windows the offscreen platform, so that no CMakeLists repeats set_tests_properties.

# mhaviz_test_properties(<test> [QT] [TIMEOUT <s>] [ENVIRONMENT <VAR=value>...] [<PROP> <value>...])
#   QT: run under the offscreen platform (QT_QPA_PLATFORM=offscreen). TIMEOUT: 600 unless given.
#   Further property/value pairs (e.g. SKIP_REGULAR_EXPRESSION) are passed on.
function(mhaviz_test_properties test)
  cmake_parse_arguments(PARSE_ARGV 1 arg "QT" "TIMEOUT" "ENVIRONMENT")
  if(NOT arg_TIMEOUT)
    set(arg_TIMEOUT 600)
  endif()
  set(env ${arg_ENVIRONMENT})
  if(arg_QT)
    list(PREPEND env "QT_QPA_PLATFORM=offscreen")
  endif()
  set_tests_properties(${test} PROPERTIES TIMEOUT ${arg_TIMEOUT} ${arg_UNPARSED_ARGUMENTS})
  if(env)
    set_tests_properties(${test} PROPERTIES ENVIRONMENT "${env}")  # one list, quoted
  endif()
endfunction()

# mhaviz_add_ui_test(<name> <sources>... [LINK <libraries>...])
#   A QtTest executable and its ctest entry of the same name, offscreen, TIMEOUT 600. It links
#   the given libraries with Qt6::Test; by default the layer its folder is named after
#   (tests/ui/<layer>/ links mhaviz::<layer>), so a test exercises only that layer and those below.
function(mhaviz_add_ui_test name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "LINK")
  if(NOT arg_LINK)
    get_filename_component(layer ${CMAKE_CURRENT_SOURCE_DIR} NAME)
    set(arg_LINK mhaviz::${layer})
  endif()
  qt_add_executable(${name} ${arg_UNPARSED_ARGUMENTS})
  set_target_properties(${name} PROPERTIES WIN32_EXECUTABLE OFF MACOSX_BUNDLE OFF)
  target_link_libraries(${name} PRIVATE ${arg_LINK} Qt6::Test mhaviz::warnings)
  list(GET arg_LINK 0 layer_target)
  get_target_property(pch ${layer_target} MHAVIZ_PCH)
  if(pch)
    mhaviz_use_pch(${name} ${pch})  # the layer's precompiled Qt (and QCustomPlot) headers
  endif()
  target_compile_definitions(${name} PRIVATE MHAVIZ_FIXTURE_DIR="${MHAVIZ_FIXTURE_DIR}")
  add_test(NAME ${name} COMMAND ${name})
  mhaviz_test_properties(${name} QT)
endfunction()
