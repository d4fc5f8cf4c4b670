# Script mode: cmake -DCLI=path/to/mhaviz-cli -DCOMPLETION=out.bash -DCOMMANDS_H2M=out.h2m
#                    -P GenerateCliDocs.cmake
# Reads mhaviz-cli's own help (the command table and each command's QCommandLineParser options)
# and writes what is generated from it, so that neither can go stale:
#   COMPLETION    the bash completion of mhaviz-cli: commands, each command's options, file names
#                 after options that take a file, the choices of options like --format <csv|json>
#   COMMANDS_H2M  a help2man include file: the COMMANDS section of mhaviz-cli(1), each
#                 command's usage, summary and options
# An option's value is a file when its placeholder has an extension (C.json, OUT.png|.svg) or
# is T or FILE; its choices are the words of a placeholder like <csv|json> (one-letter words
# such as the h of <all|h> stand for a number and are left out).
cmake_minimum_required(VERSION 3.25)

# The help's lines as a list. Square brackets are swapped for two control characters first:
# CMake does not split a list inside [ ], and an unmatched one (a range such as "in (0, 1]")
# made the lines after it one element, hiding their options. roff() swaps them back.
string(ASCII 1 _lsqb)
string(ASCII 2 _rsqb)
function(run_help out)
  execute_process(COMMAND ${CLI} ${ARGN} OUTPUT_VARIABLE text RESULT_VARIABLE rc
                  ENCODING UTF-8)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${CLI} ${ARGN} failed (exit ${rc})")
  endif()
  string(REPLACE "[" "${_lsqb}" text "${text}")
  string(REPLACE "]" "${_rsqb}" text "${text}")
  string(REPLACE ";" "\\;" text "${text}")
  string(REPLACE "\n" ";" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# roff text: backslashes and hyphens escaped, a leading dot or quote protected.
function(roff out text)
  string(REPLACE "${_lsqb}" "[" text "${text}")
  string(REPLACE "${_rsqb}" "]" text "${text}")
  string(REPLACE "\\" "\\e" text "${text}")
  string(REPLACE "-" "\\-" text "${text}")
  string(REGEX REPLACE "^([.'])" "\\\\&\\1" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

run_help(global_help --help)
set(commands "")
set(in_commands FALSE)
foreach(line IN LISTS global_help)
  if(line STREQUAL "Commands:")
    set(in_commands TRUE)
  elseif(in_commands AND line MATCHES "^  ([a-z]+)  ")
    list(APPEND commands ${CMAKE_MATCH_1})
  elseif(in_commands)
    set(in_commands FALSE)
  endif()
endforeach()
if(NOT commands)
  message(FATAL_ERROR "no commands found in `${CLI} --help`")
endif()

set(cases "")
set(man "[COMMANDS]\n")
foreach(command IN LISTS commands)
  run_help(help ${command} --help)
  set(options "")
  set(files "")
  set(values "")
  set(choice_cases "")
  set(man_options "")
  foreach(line IN LISTS help)
    if(line MATCHES "^Usage: (.*)$")
      roff(usage "${CMAKE_MATCH_1}")
      string(APPEND man ".SS ${command}\n.B ${usage}\n.PP\n")
    elseif(line MATCHES "^  (-[A-Za-z], )?(--[a-z0-9-]+)( <([^>]*)>)? *(.*)$")
      set(name ${CMAKE_MATCH_2})
      set(value "${CMAKE_MATCH_4}")
      set(description "${CMAKE_MATCH_5}")
      list(APPEND options ${name})
      if(NOT value STREQUAL "")  # if(value) would take the placeholder "n" for false
        list(APPEND values ${name})
      endif()
      if(value MATCHES "\\.[A-Za-z]" OR value STREQUAL "T" OR value STREQUAL "FILE")
        list(APPEND files ${name})
      elseif(value MATCHES "\\|")
        string(REPLACE "|" ";" words "${value}")
        list(FILTER words INCLUDE REGEX "^[A-Za-z0-9_-][A-Za-z0-9_-]+$")
        list(JOIN words " " words)
        string(APPEND choice_cases "      ${name}) choices=\"${words}\" ;;\n")
      endif()
      roff(term "${CMAKE_MATCH_1}${name}")
      set(term "\\fB${term}\\fR")
      if(NOT value STREQUAL "")
        roff(value "${value}")
        string(APPEND term " \\fI${value}\\fR")
      endif()
      roff(description "${description}")
      string(APPEND man_options ".TP\n${term}\n${description}\n")
    elseif(line MATCHES "^      +(.*)$" AND man_options)
      roff(more "${CMAKE_MATCH_1}")
      string(APPEND man_options "${more}\n")
    elseif(line AND NOT line STREQUAL "Options:" AND NOT line MATCHES "^Usage:")
      roff(text "${line}")
      string(APPEND man "${text}\n")
    endif()
  endforeach()
  string(APPEND man "${man_options}")
  list(JOIN options " " options)
  list(JOIN files " " files)
  list(JOIN values " " values)
  string(APPEND cases "    ${command})\n      options=\"${options}\"\n      values=\"${values}\"\n"
                      "      files=\"${files}\"\n")
  if(choice_cases)
    string(APPEND cases "      case $prev in\n${choice_cases}      esac\n")
  endif()
  string(APPEND cases "      ;;\n")
endforeach()
list(JOIN commands " " command_words)

run_help(version_line --version)
list(GET version_line 0 version_line)
file(WRITE ${COMPLETION} "# bash completion for mhaviz-cli, generated from the help of ${version_line}
# (cmake/GenerateCliDocs.cmake): do not edit. Installed to share/bash-completion/completions.
_mhaviz_cli() {
  local cur=\${COMP_WORDS[COMP_CWORD]} prev=\${COMP_WORDS[COMP_CWORD - 1]}
  local commands=\"${command_words}\"
  if ((COMP_CWORD == 1)); then
    COMPREPLY=($(compgen -W \"$commands help --help --version\" -- \"$cur\"))
    return
  fi
  local options=\"\" values=\"\" files=\"\" choices=\"\"
  case \${COMP_WORDS[1]} in
    help | -h | --help)
      ((COMP_CWORD == 2)) && COMPREPLY=($(compgen -W \"$commands\" -- \"$cur\"))
      return
      ;;
${cases}    *) return ;;
  esac
  if [[ \" $files \" == *\" $prev \"* ]]; then
    compopt -o filenames 2>/dev/null
    local IFS=$'\\n'
    COMPREPLY=($(compgen -f -- \"$cur\"))
  elif [[ -n $choices ]]; then
    COMPREPLY=($(compgen -W \"$choices\" -- \"$cur\"))
  elif [[ \" $values \" != *\" $prev \"* ]]; then  # not after an option's value
    COMPREPLY=($(compgen -W \"$options\" -- \"$cur\"))
  fi
}
complete -F _mhaviz_cli mhaviz-cli
")
file(WRITE ${COMMANDS_H2M} "${man}")
