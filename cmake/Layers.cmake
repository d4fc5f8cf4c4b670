# mhaviz_add_layer(NAME SOURCES... [LINK target...]): the library of one layer of ui/ (see
# cmake/layers.txt), as mhaviz_<NAME> with the alias mhaviz::<NAME>. mhaviz_add_core_layer does
# the same for a layer of core/ (below).
#
# Its include root holds nothing but a link named after the layer, pointing at its folder, so
# that "<NAME>/file.hpp" resolves in this layer and in the layers that link it, and nowhere
# else: an include against the arrows of cmake/layers.txt does not compile. The layers it
# links are read from cmake/layers.txt; LINK adds the outside libraries it uses (Qt modules,
# QCustomPlot).

file(STRINGS ${CMAKE_CURRENT_LIST_DIR}/layers.txt _mhaviz_layer_lines REGEX "^[a-z]")
set(MHAVIZ_UI_LAYERS)    # the layers under ui/, lower ones first (the file's order)
set(MHAVIZ_CORE_LAYERS)  # the layers of core/ (core/src/<folder>), lower ones first
foreach(_line IN LISTS _mhaviz_layer_lines)
  string(REGEX REPLACE "[ \t]+" ";" _fields "${_line}")
  list(POP_FRONT _fields _layer _folder)
  list(REMOVE_ITEM _fields "-")
  set(MHAVIZ_LAYER_FOLDER_${_layer} ${_folder})
  set(MHAVIZ_LAYER_DEPS_${_layer} ${_fields})
  if(_folder MATCHES "^ui/")
    list(APPEND MHAVIZ_UI_LAYERS ${_layer})
  elseif(_folder MATCHES "^core/src/")
    list(APPEND MHAVIZ_CORE_LAYERS ${_layer})
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
  # mhaviz::options (the language level, -march and the sanitizers) directly: a layer that
  # includes no other (desktop) would otherwise be built without ASan or TSan in their presets.
  target_link_libraries(mhaviz_${name} PUBLIC ${layers} mhaviz::options ${arg_LINK}
                        PRIVATE mhaviz::warnings)

  # Precompiled headers (cmake/PrecompiledHeaders.cmake): QCustomPlot's for the layers that
  # draw maps and those above them, Qt Widgets' for the other widget layers.
  # The layer's tests (mhaviz_add_ui_test) take the same set (the target's MHAVIZ_PCH).
  if(name STREQUAL "render" OR "render" IN_LIST MHAVIZ_LAYER_DEPS_${name})
    set(pch plot)
  elseif("Qt6::Widgets" IN_LIST arg_LINK)
    set(pch widgets)
  else()
    set(pch "")
  endif()
  if(pch)
    mhaviz_use_pch(mhaviz_${name} ${pch})
    set_property(TARGET mhaviz_${name} PROPERTY MHAVIZ_PCH ${pch})
  endif()
endfunction()

# mhaviz_add_core_layer(NAME SOURCES... [LINK target...] [PRIVATE_LINK target...]): the library of
# one layer of core/ (a core_* line of cmake/layers.txt, folder core/src/<folder>), as
# mhaviz_<NAME> with the alias mhaviz::<NAME>; no Qt.
#
# Its include root holds only mhaviz/core/<folder>, a link to core/include/mhaviz/core/<folder>,
# so that its public headers ("mhaviz/core/<folder>/file.hpp") resolve in this layer and in the
# layers that link it, and nowhere else: a public include against the arrows does not compile.
# Its sources also see core/src, for the private headers of the layers below it
# ("base/eigen_types.hpp", "forward/attention_tile.hpp"); the `layers` test holds those to the
# arrows. LINK adds outside libraries its public headers need, PRIVATE_LINK those only its
# sources use.
function(mhaviz_add_core_layer name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "SOURCES;LINK;PRIVATE_LINK")
  if(NOT name IN_LIST MHAVIZ_CORE_LAYERS)
    message(FATAL_ERROR "mhaviz_add_core_layer(${name}): no such core layer in cmake/layers.txt")
  endif()
  add_library(mhaviz_${name} STATIC ${arg_SOURCES})
  add_library(mhaviz::${name} ALIAS mhaviz_${name})

  get_filename_component(folder ${MHAVIZ_LAYER_FOLDER_${name}} NAME)
  set(public ${PROJECT_SOURCE_DIR}/core/include/mhaviz/core/${folder})
  if(IS_DIRECTORY ${public})
    set(root ${PROJECT_BINARY_DIR}/layers/${name})
    file(MAKE_DIRECTORY ${root}/mhaviz/core)
    file(CREATE_LINK ${public} ${root}/mhaviz/core/${folder} SYMBOLIC)
    target_include_directories(mhaviz_${name} PUBLIC ${root})
  endif()
  target_include_directories(mhaviz_${name} PRIVATE ${PROJECT_SOURCE_DIR}/core/src)

  set(layers)
  foreach(dep IN LISTS MHAVIZ_LAYER_DEPS_${name})
    list(APPEND layers mhaviz::${dep})
  endforeach()
  target_link_libraries(mhaviz_${name} PUBLIC ${layers} mhaviz::options Eigen3::Eigen ${arg_LINK}
                                       PRIVATE mhaviz::warnings ${arg_PRIVATE_LINK})
endfunction()
