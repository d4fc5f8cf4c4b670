# What an installed mhaviz needs besides the programs, the launcher and the icons (installed
# by CMakeLists.txt and app/), and the Debian package CPack makes of it all (scripts/package):
#   share/man/man1        mhaviz.1.gz, mhaviz-cli.1.gz: help2man from the programs' own --help
#                         (plus resources/package/*.h2m and every command's help), when
#                         help2man is installed
#   share/bash-completion/completions/mhaviz-cli   generated from mhaviz-cli's help
#   share/metainfo        AppStream metadata (resources/package/mhaviz.metainfo.xml.in)
#   share/mhaviz/examples resources/examples: configurations and captured models
#   share/doc/mhaviz      copyright, changelog.gz (resources/package)
#   MHAVIZ_INSTALL_PYTHONDIR/mhaviz_capture   the Python capture module (tools/)
# The generated files are built by the target mhaviz-install-files (part of `all`).
if(NOT MHAVIZ_BUILD_UI)
  return()  # the programs are what is installed
endif()

set(MHAVIZ_INSTALL_PYTHONDIR "lib/python3/dist-packages" CACHE STRING
    "Where the mhaviz_capture module is installed, under the prefix (Debian's python3 looks in /usr/lib/python3/dist-packages)")
set(MHAVIZ_SCREENSHOT_BASE_URL "" CACHE STRING
    "Web address at which the repository's docs/images is published, for the AppStream screenshots (AppStream takes only web URLs; empty: no screenshots)")
set(MHAVIZ_PACKAGE_MAINTAINER "mhaviz maintainers <maintainers@users.noreply.a-seed-509c40c1.example>"
    CACHE STRING "Maintainer field of the Debian package")

set(_res ${PROJECT_SOURCE_DIR}/resources/package)
set(_gen ${PROJECT_BINARY_DIR}/install-files)
file(MAKE_DIRECTORY ${_gen})

# AppStream metadata: the release version is checked against project(VERSION) by the package
# check; the screenshots' address is filled in here.
file(READ ${_res}/mhaviz.metainfo.xml.in _metainfo)
if(MHAVIZ_SCREENSHOT_BASE_URL STREQUAL "")
  string(REGEX REPLACE "\n  <screenshots>.*</screenshots>" "" _metainfo "${_metainfo}")
endif()
file(CONFIGURE OUTPUT ${_gen}/mhaviz.metainfo.xml CONTENT "${_metainfo}" @ONLY)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_res}/mhaviz.metainfo.xml.in)

# Bash completion and the COMMANDS section of mhaviz-cli(1), from mhaviz-cli's own help.
add_custom_command(
  OUTPUT ${_gen}/mhaviz-cli ${_gen}/mhaviz-cli.commands.h2m
  COMMAND ${CMAKE_COMMAND} -DCLI=$<TARGET_FILE:mhaviz-cli> -DCOMPLETION=${_gen}/mhaviz-cli
          -DCOMMANDS_H2M=${_gen}/mhaviz-cli.commands.h2m
          -P ${PROJECT_SOURCE_DIR}/cmake/GenerateCliDocs.cmake
  DEPENDS mhaviz-cli ${PROJECT_SOURCE_DIR}/cmake/GenerateCliDocs.cmake
  COMMENT "Generating mhaviz-cli's bash completion from its help"
  VERBATIM)
set(_files ${_gen}/mhaviz-cli)

add_custom_command(
  OUTPUT ${_gen}/changelog.gz
  COMMAND ${CMAKE_COMMAND} -E copy ${_res}/changelog ${_gen}/changelog
  COMMAND gzip -9nf ${_gen}/changelog
  DEPENDS ${_res}/changelog
  VERBATIM)
list(APPEND _files ${_gen}/changelog.gz)

find_program(HELP2MAN_EXE help2man)
if(HELP2MAN_EXE)
  # help2man runs `PROGRAM --help` and `PROGRAM --version`; found on PATH, the programs print
  # their plain names in "Usage:". The window's help needs no display (offscreen).
  set(_path "PATH=$<TARGET_FILE_DIR:mhaviz>:$ENV{PATH}")
  add_custom_command(
    OUTPUT ${_gen}/mhaviz.1.gz
    COMMAND ${CMAKE_COMMAND} -E env ${_path} QT_QPA_PLATFORM=offscreen
            ${HELP2MAN_EXE} --no-info --section=1
            "--name=multi-head attention visualiser" --include=${_res}/mhaviz.h2m
            --output=${_gen}/mhaviz.1 mhaviz
    COMMAND gzip -9nf ${_gen}/mhaviz.1
    DEPENDS mhaviz ${_res}/mhaviz.h2m
    COMMENT "Generating mhaviz(1) with help2man"
    VERBATIM)
  add_custom_command(
    OUTPUT ${_gen}/mhaviz-cli.1.gz
    COMMAND ${CMAKE_COMMAND} -E env ${_path}
            ${HELP2MAN_EXE} --no-info --section=1
            "--name=nn.MultiheadAttention as PyTorch computes it, without a window"
            --include=${_res}/mhaviz-cli.h2m --include=${_gen}/mhaviz-cli.commands.h2m
            --output=${_gen}/mhaviz-cli.1 mhaviz-cli
    COMMAND gzip -9nf ${_gen}/mhaviz-cli.1
    DEPENDS mhaviz-cli ${_res}/mhaviz-cli.h2m ${_gen}/mhaviz-cli.commands.h2m
    COMMENT "Generating mhaviz-cli(1) with help2man"
    VERBATIM)
  list(APPEND _files ${_gen}/mhaviz.1.gz ${_gen}/mhaviz-cli.1.gz)
  install(FILES ${_gen}/mhaviz.1.gz ${_gen}/mhaviz-cli.1.gz
          DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
else()
  message(STATUS "help2man not found: no manual pages (scripts/install-deps installs it)")
endif()
add_custom_target(mhaviz-install-files ALL DEPENDS ${_files})

install(FILES ${_gen}/mhaviz-cli DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
install(FILES ${_gen}/mhaviz.metainfo.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
install(FILES ${_res}/copyright ${_gen}/changelog.gz DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/resources/examples/
        DESTINATION ${CMAKE_INSTALL_DATADIR}/mhaviz/examples)
install(FILES ${PROJECT_SOURCE_DIR}/tools/mhaviz_capture/__init__.py
              ${PROJECT_SOURCE_DIR}/tools/mhaviz_capture/__main__.py
              ${PROJECT_SOURCE_DIR}/tools/mhaviz_capture/attentions.py
              ${PROJECT_SOURCE_DIR}/tools/mhaviz_capture/generation.py
              ${PROJECT_SOURCE_DIR}/tools/mhaviz_capture/notebook.py
              ${PROJECT_SOURCE_DIR}/tools/mhaviz_capture/torch_path.py
              ${PROJECT_SOURCE_DIR}/tools/mhaviz_capture/vision.py
        DESTINATION ${MHAVIZ_INSTALL_PYTHONDIR}/mhaviz_capture)

# The Debian package (cpack in the build folder; scripts/package). cpack installs what is
# built: scripts/package builds the programs and mhaviz-install-files, not `all` (the tests),
# which `make install`/cpack would otherwise build first.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME mhaviz)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # mhaviz_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${MHAVIZ_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)  # Depends: from the programs' libraries (dpkg-shlibdeps)
set(CPACK_DEBIAN_PACKAGE_DEPENDS python3)  # and the interpreter of mhaviz_capture
# numpy for the capture module; Qt's own strings (buttons, file dialogs) in the UI's language
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "python3-numpy, qt6-translations-l10n")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS python3-torch)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_DEBIAN_COMPRESSION_TYPE xz)
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "visualiser of PyTorch's multi-head attention, head by head")
set(CPACK_PACKAGE_DESCRIPTION "mhaviz computes the complete forward pass of nn.MultiheadAttention
exactly as PyTorch does (every argument of the module and of its forward
call, the masks, bias_k and the zero key) and draws one heatmap per
head, step by step from the projections to the output: for exploring
parameters, teaching, and exporting pictures (PNG, SVG, PDF).
.
The package holds the window (mhaviz), the command line (mhaviz-cli:
tensors, images, shape flow, head measures, a PyTorch script that checks
the numbers, whole captured models), their manual pages and bash
completion, example files, and the Python module mhaviz_capture, which
saves layers of a PyTorch model for mhaviz (with python3-numpy and
python3-torch).")
include(CPack)
