# The rules of docs/architecture.md that the link graph alone cannot show: which library's sources
# may include which, that public headers include no internal (detail/) header, toml++ or GiNaC,
# and that MPI is called only inside ga/.
#   cmake -DSOURCE_DIR=... -P layering.cmake
cmake_minimum_required(VERSION 3.25)
if(NOT DEFINED SOURCE_DIR)
  message(FATAL_ERROR "layering.cmake: -DSOURCE_DIR=... is required")
endif()

# A library is a top-level folder, or for the split modules (mechanics/, synthesis/) a folder
# inside them; its headers are included as "kinevo/<library>/...".
set(split_modules mechanics synthesis)
set(mechanics_libraries solvers model dynamics kinematics)
set(synthesis_libraries common linkages cams)
set(mechanics_all mechanics/solvers mechanics/model mechanics/dynamics mechanics/kinematics)
set(synthesis_all synthesis/common synthesis/linkages synthesis/cams)

# library -> the libraries its sources may include (besides itself)
set(allowed_core "")
set(allowed_io "core")
# The Newton / least-squares family: numbers only, for every domain.
set(allowed_numerics "core;io")
set(allowed_ga "core;io")
set(allowed_symbolic "core;io")
# The solvers see numbers only (M, f, A, b): no expressions, no model files, no formulations.
set(allowed_mechanics/solvers "core;io")
set(allowed_mechanics/model "core;io;symbolic;mechanics/solvers")
set(allowed_mechanics/dynamics "core;io;symbolic;mechanics/solvers;mechanics/model")
set(allowed_mechanics/kinematics "core;io;numerics;symbolic;mechanics/solvers;mechanics/model;mechanics/dynamics")
set(allowed_gauss "core;io;numerics;ga;symbolic;${mechanics_all}")
set(allowed_studies "core;io;numerics;ga;symbolic;${mechanics_all};gauss")
set(allowed_synthesis/common "core;io;numerics")
set(allowed_synthesis/linkages "core;io;numerics;ga;synthesis/common")
set(allowed_synthesis/cams "core;io;numerics;synthesis/common")
set(allowed_optimization "core;io;numerics;ga;symbolic")
set(allowed_analysis "core;io;numerics;symbolic")
set(libraries core io numerics ga symbolic ${mechanics_all} gauss studies ${synthesis_all} optimization
              analysis)
set(project_folders core io numerics ga symbolic mechanics gauss studies synthesis optimization analysis cli)

# The library an include path "kinevo/<path>" names, into `out` ("" when not the project's).
function(library_of_include path out)
  string(REGEX MATCH "^[a-z_]+" top "${path}")
  set(result "")
  if(top IN_LIST split_modules)
    string(REGEX MATCH "^[a-z_]+/[a-z_]+" result "${path}")
  elseif(top IN_LIST project_folders)
    set(result "${top}")
  endif()
  set(${out} "${result}" PARENT_SCOPE)
endfunction()

set(violations "")
foreach(library IN LISTS libraries)
  file(GLOB_RECURSE sources "${SOURCE_DIR}/${library}/*.hpp" "${SOURCE_DIR}/${library}/*.cpp")
  foreach(source IN LISTS sources)
    file(RELATIVE_PATH name "${SOURCE_DIR}" "${source}")
    # The project's headers are included with the package prefix: #include "kinevo/<library>/...".
    file(STRINGS "${source}" includes REGEX "^[ \t]*#[ \t]*include[ \t]*[\"<]kinevo/[a-z_]+/")
    foreach(line IN LISTS includes)
      string(REGEX REPLACE "^[^\"<]*[\"<]kinevo/([^\">]+)[\">].*$" "\\1" path "${line}")
      library_of_include("${path}" target)
      if(target STREQUAL "" OR target STREQUAL library)
        continue()
      endif()
      if(NOT target IN_LIST libraries AND NOT target STREQUAL "cli")
        list(APPEND violations "${name}: ${target}/ is no library (${line})")
      elseif(NOT target IN_LIST allowed_${library})
        list(APPEND violations "${name}: ${library}/ must not include ${target}/ (${line})")
      endif()
    endforeach()
    # A public header (installed) includes no internal header, toml++ or GiNaC.
    if(name MATCHES "/include/kinevo/" AND NOT name MATCHES "/detail/")
      file(STRINGS "${source}" internal REGEX
           "^[ \t]*#[ \t]*include[ \t]*[\"<](kinevo/.*/detail/|toml\\+\\+/|ginac/)")
      foreach(line IN LISTS internal)
        list(APPEND violations "${name}: a public header includes an internal one (${line}); move it under detail/")
      endforeach()
    endif()
    # The old form without the prefix would only compile by accident (tools/rewrite_includes.sh).
    file(STRINGS "${source}" unprefixed REGEX "^[ \t]*#[ \t]*include[ \t]*[\"<][a-z_]+/")
    foreach(line IN LISTS unprefixed)
      string(REGEX REPLACE "^[^\"<]*[\"<]([a-z_]+)/.*$" "\\1" folder "${line}")
      if(folder IN_LIST project_folders)
        list(APPEND violations "${name}: include the project's headers as \"kinevo/${folder}/...\" (${line})")
      endif()
    endforeach()
    if(NOT library STREQUAL "ga")
      file(STRINGS "${source}" mpi_uses REGEX "(<mpi\\.h>|[^A-Za-z_]MPI_[A-Z][a-z_]+[ \t]*\\()")
      foreach(line IN LISTS mpi_uses)
        list(APPEND violations "${name}: MPI is used outside ga/ (${line})")
      endforeach()
    endif()
  endforeach()
endforeach()

# Every source of a split module lives in one of its libraries.
foreach(module IN LISTS split_modules)
  file(GLOB loose "${SOURCE_DIR}/${module}/*.hpp" "${SOURCE_DIR}/${module}/*.cpp")
  foreach(source IN LISTS loose)
    file(RELATIVE_PATH name "${SOURCE_DIR}" "${source}")
    list(APPEND violations "${name}: in none of ${module}/'s libraries (${${module}_libraries})")
  endforeach()
endforeach()

# cli/ may include anything, but not MPI itself.
file(GLOB_RECURSE cli_sources "${SOURCE_DIR}/cli/*.cpp" "${SOURCE_DIR}/cli/*.hpp")
foreach(source IN LISTS cli_sources)
  file(RELATIVE_PATH name "${SOURCE_DIR}" "${source}")
  file(STRINGS "${source}" mpi_uses REGEX "(<mpi\\.h>|[^A-Za-z_]MPI_[A-Z][a-z_]+[ \t]*\\()")
  foreach(line IN LISTS mpi_uses)
    list(APPEND violations "${name}: MPI is used outside ga/ (${line})")
  endforeach()
endforeach()

if(violations)
  list(JOIN violations "\n" report)
  message(FATAL_ERROR "layering rules of docs/architecture.md broken:\n${report}")
endif()
