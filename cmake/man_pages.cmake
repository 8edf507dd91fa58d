# The man pages: kinevo(1) from `kinevo --help`, and one page per subcommand at every level,
# kinevo-simulate(1), kinevo-synth-fourbar(1), kinevo-analyze-loop-rrrr(1), ..., each from that
# subcommand's own --help, so that `man kinevo-simulate` shows what `kinevo simulate --help` does.
# The subcommands are read from the "Subcommands:" sections of the help texts, so a new one gets
# its page without a change here. help2man runs a program; each subcommand gets a two-line
# wrapper named for its page.
#   cmake -DKINEVO=... -DHELP2MAN=... -DOUT_DIR=... -DVERSION=... -DINCLUDE=... -P man_pages.cmake
cmake_minimum_required(VERSION 3.25)
foreach(var KINEVO HELP2MAN OUT_DIR VERSION INCLUDE)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "man_pages.cmake: -D${var}=... is required")
  endif()
endforeach()

# The entries listed under "Subcommands:" in `kinevo <words> --help`, as name|description.
function(subcommands_of words out)
  execute_process(COMMAND ${KINEVO} ${words} --help RESULT_VARIABLE status
    OUTPUT_VARIABLE help ERROR_VARIABLE help)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "man_pages.cmake: `kinevo ${words} --help` failed:\n${help}")
  endif()
  set(names "")
  set(inside FALSE)
  string(REPLACE "\n" ";" lines "${help}")
  foreach(line IN LISTS lines)
    if(line MATCHES "^Subcommands:")
      set(inside TRUE)
    elseif(inside AND line MATCHES "^  ([a-z0-9-]+)  +(.*)$")
      string(REPLACE ";" "," description "${CMAKE_MATCH_2}")
      list(APPEND names "${CMAKE_MATCH_1}|${description}")
    elseif(inside AND NOT line MATCHES "^ ")
      set(inside FALSE)
    endif()
  endforeach()
  set(${out} "${names}" PARENT_SCOPE)
endfunction()

# One page for `kinevo <words>` (its NAME line: the description its parent lists), and the pages
# of its own subcommands.
function(page_for words description)
  list(JOIN words "-" dashed)
  list(JOIN words " " spaced)
  set(name "kinevo-${dashed}")
  set(wrapper "${OUT_DIR}/bin/${name}")
  file(WRITE "${wrapper}" "#!/bin/sh\nexec \"${KINEVO}\" ${spaced} \"$@\"\n")
  file(CHMOD "${wrapper}" PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ
    GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
  execute_process(COMMAND ${HELP2MAN} --no-info --no-discard-stderr "--version-string=${VERSION}"
      "--name=${description}" "--include=${INCLUDE}" "--output=${OUT_DIR}/${name}.1" "${wrapper}"
    RESULT_VARIABLE status ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "man_pages.cmake: help2man failed for `kinevo ${spaced}`:\n${err}")
  endif()
  subcommands_of("${words}" below)
  foreach(entry IN LISTS below)
    string(REPLACE "|" ";" parts "${entry}")
    list(GET parts 0 sub)
    list(GET parts 1 text)
    page_for("${words};${sub}" "${text}")
  endforeach()
endfunction()

file(REMOVE_RECURSE "${OUT_DIR}")
file(MAKE_DIRECTORY "${OUT_DIR}/bin")
subcommands_of("" top)
foreach(entry IN LISTS top)
  string(REPLACE "|" ";" parts "${entry}")
  list(GET parts 0 sub)
  list(GET parts 1 text)
  page_for("${sub}" "${text}")
endforeach()
