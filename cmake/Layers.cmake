# mhaviz_add_layer(NAME SOURCES... [LINK target...]): the library of one layer of ui/ (see
# cmake/layers.txt), as mhaviz_<NAME> with the alias mhaviz::<NAME>.
#
# Its include root holds nothing but a link named after the layer, pointing at its folder, so
# that "<NAME>/file.hpp" resolves in this layer and in the layers that link it, and nowhere
# else: an include against the arrows of cmake/layers.txt does not compile. The layers it
# links are read from cmake/layers.txt; LINK adds the outside libraries it uses (Qt modules,
# QCustomPlot).

file(STRINGS ${CMAKE_CURRENT_LIST_DIR}/layers.txt _mhaviz_layer_lines REGEX "^[a-z]")
set(MHAVIZ_UI_LAYERS)  # the layers under ui/, lower ones first (the file's order)
foreach(_line IN LISTS _mhaviz_layer_lines)
  string(REGEX REPLACE "[ \t]+" ";" _fields "${_line}")
  list(POP_FRONT _fields _layer _folder)
  list(REMOVE_ITEM _fields "-")
  set(MHAVIZ_LAYER_FOLDER_${_layer} ${_folder})
  set(MHAVIZ_LAYER_DEPS_${_layer} ${_fields})
  if(_folder MATCHES "^ui/")
    list(APPEND MHAVIZ_UI_LAYERS ${_layer})
  endif()
endforeach()

function(mhaviz_add_layer name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "SOURCES;LINK")
  if(NOT DEFINED MHAVIZ_LAYER_FOLDER_${name})
    message(FATAL_ERROR "mhaviz_add_layer(${name}): no such layer in cmake/layers.txt")
  endif()
  add_library(mhaviz_${name} STATIC ${arg_SOURCES})
  add_library(mhaviz::${name} ALIAS mhaviz_${name})

  set(root ${PROJECT_BINARY_DIR}/layers/${name})
  file(MAKE_DIRECTORY ${root})
  file(CREATE_LINK ${PROJECT_SOURCE_DIR}/${MHAVIZ_LAYER_FOLDER_${name}} ${root}/${name} SYMBOLIC)
  target_include_directories(mhaviz_${name} PUBLIC ${root})

  set(layers)
  foreach(dep IN LISTS MHAVIZ_LAYER_DEPS_${name})
    list(APPEND layers mhaviz::${dep})
  endforeach()
  target_link_libraries(mhaviz_${name} PUBLIC ${layers} ${arg_LINK} PRIVATE mhaviz::warnings)

  # Precompiled headers (cmake/PrecompiledHeaders.cmake): QCustomPlot's for the layers that
  # draw maps and those above them, Qt Widgets' for the other widget layers.
  # The layer's tests (mhaviz_add_ui_test) take the plot set too when the layer draws.
  if(name STREQUAL "render" OR "render" IN_LIST MHAVIZ_LAYER_DEPS_${name})
    mhaviz_use_pch(mhaviz_${name} plot)
    set_property(TARGET mhaviz_${name} PROPERTY MHAVIZ_DRAWS ON)
  elseif("Qt6::Widgets" IN_LIST arg_LINK)
    mhaviz_use_pch(mhaviz_${name} widgets)
  endif()
endfunction()
