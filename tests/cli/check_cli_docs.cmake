# ctest cli-docs: the bash completion and the manual's COMMANDS section that
# cmake/GenerateCliDocs.cmake makes from mhaviz-cli's help hold every option of every command.
# Read here from the raw help text (no CMake lists), so a help line the generator loses — as
# an unmatched "]" in a description once did — is named.
#   cmake -DCLI=mhaviz-cli -DGENERATOR=GenerateCliDocs.cmake -DOUT=dir -P check_cli_docs.cmake
cmake_minimum_required(VERSION 3.25)

execute_process(COMMAND ${CMAKE_COMMAND} -DCLI=${CLI} -DCOMPLETION=${OUT}/mhaviz-cli.bash
                        -DCOMMANDS_H2M=${OUT}/mhaviz-cli.commands.h2m -P ${GENERATOR}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cli-docs: ${GENERATOR} failed (exit ${rc})")
endif()
file(READ ${OUT}/mhaviz-cli.bash completion)
file(READ ${OUT}/mhaviz-cli.commands.h2m manual)

execute_process(COMMAND ${CLI} --help OUTPUT_VARIABLE help ENCODING UTF-8)
string(REGEX MATCHALL "\n  [a-z]+  " commands "${help}")
set(problems 0)
set(checked 0)
foreach(command IN LISTS commands)
  string(STRIP "${command}" command)
  execute_process(COMMAND ${CLI} ${command} --help OUTPUT_VARIABLE text ENCODING UTF-8)
  string(REGEX MATCHALL "\n  (-[A-Za-z], )?--[a-z0-9-]+" options "${text}")
  if(NOT completion MATCHES "\n    ${command}\\)\n      options=\"([^\"]*)\"")
    message(SEND_ERROR "cli-docs: the completion has no case for `${command}`")
    math(EXPR problems "${problems} + 1")
    continue()
  endif()
  set(completed " ${CMAKE_MATCH_1} ")
  # The command's own section of the manual: from ".SS command" to the next ".SS".
  string(FIND "${manual}" ".SS ${command}\n" start)
  set(section "")
  if(NOT start EQUAL -1)
    string(SUBSTRING "${manual}" ${start} -1 section)
    string(FIND "${section}" "\n.SS " end)
    if(NOT end EQUAL -1)
      string(SUBSTRING "${section}" 0 ${end} section)
    endif()
  endif()
  foreach(option IN LISTS options)
    string(REGEX REPLACE "^\n  (-[A-Za-z], )?" "" option "${option}")
    math(EXPR checked "${checked} + 1")
    if(NOT completed MATCHES " ${option} ")
      message(SEND_ERROR "cli-docs: `${command} ${option}` is in the help, not in the completion")
      math(EXPR problems "${problems} + 1")
    endif()
    string(REPLACE "-" "\\-" roff_option "${option}")
    string(FIND "${section}" "${roff_option}\\fR" at)  # after "\fB" or "\fB\-h, "
    if(at EQUAL -1)
      message(SEND_ERROR "cli-docs: `${command} ${option}` is in the help, not in the manual")
      math(EXPR problems "${problems} + 1")
    endif()
  endforeach()
endforeach()
list(LENGTH commands count)
message("cli-docs: ${checked} options of ${count} commands checked, ${problems} problems")
