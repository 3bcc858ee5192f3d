# cmake -DPMIXPP_SOURCE_DIR=<tree> -P PmixppCheckLayers.cmake
#
# Fails (one line per offending include) when an #include crosses a
# boundary the architecture depends on (docs/architecture.md, "Layers"):
#
# 1. src/server is stacked: a folder includes only folders below it.
#    The state sits at the bottom and never names a subsystem; subsystems
#    subscribe to its hooks; the engine on top runs them all. An include
#    from a lower folder to a higher one is how that knot came back before.
# 2. Components see only the installed SDK and the public headers: a
#    vendor must be able to build one out of tree.
# 3. The programs in src/bin see only the public headers (and pmixpp_info
#    the component core's inventory and index): they are built as any host
#    or tool on top of libpmix would be.
# 4. The component core (framework/) knows nothing of the library's roles.
# 5. src/common serves every role and includes none of them.
# 6. src/client reaches into the server only where a process is both: the
#    host calling the client API against its own server (self-access), and
#    a singleton reading its own job data the way a server registers it.
cmake_minimum_required(VERSION 3.20)

if(NOT PMIXPP_SOURCE_DIR)
  message(FATAL_ERROR "set -DPMIXPP_SOURCE_DIR=<source tree>")
endif()

# Lowest first. A folder may include any folder of a lower level, none of
# its own level but itself, none above. "." is the PMIx_server_* entry
# points at the top of src/server. (Names within a level are ','-joined: a
# list of lists does not survive CMake's ';' flattening.)
set(server_levels
  "host,jobdata"                          # the host's module table; job data layout (no server state)
  "state"                                 # Server, namespaces, peers, config, hooks, parts, peer_io
  "events,fork,sessiondirs,cleanup,iof"   # subsystems that need only the state
  "monitor,rendezvous,pnet"               # subsystems on top of those (events, fork, sessiondirs)
  "requests,openpmix"                     # one handler per client request; the OpenPMIx dialect
  "engine"                                # lifecycle, listeners, handshake, dispatch, self-access, hook table
  ".")                                    # PMIx_server_* entry points

set(violations "")

function(level_of folder out)
  set(index 0)
  set(found -1)
  foreach(entry IN LISTS server_levels)
    string(REPLACE "," ";" names "${entry}")
    if(folder IN_LIST names)
      set(found ${index})
    endif()
    math(EXPR index "${index} + 1")
  endforeach()
  set(${out} ${found} PARENT_SCOPE)
endfunction()

function(quoted_includes file out)
  file(STRINGS "${file}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
  set(result "")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\".*" "\\1" target "${line}")
    list(APPEND result "${target}")
  endforeach()
  set(${out} "${result}" PARENT_SCOPE)
endfunction()

# 1. The server's levels.
set(server_dir "${PMIXPP_SOURCE_DIR}/src/server")
file(GLOB_RECURSE server_files RELATIVE "${server_dir}" "${server_dir}/*.cc" "${server_dir}/*.h")
foreach(relative IN LISTS server_files)
  get_filename_component(folder "${relative}" DIRECTORY)
  if(folder STREQUAL "")
    set(folder ".")
  endif()
  string(REGEX REPLACE "/.*" "" folder "${folder}")
  level_of("${folder}" from_level)
  if(from_level EQUAL -1)
    list(APPEND violations "src/server/${relative}: folder '${folder}' has no level in cmake/PmixppCheckLayers.cmake (add it where it belongs)")
    continue()
  endif()
  quoted_includes("${server_dir}/${relative}" targets)
  foreach(target IN LISTS targets)
    if(NOT target MATCHES "^server/")
      continue()
    endif()
    string(REGEX REPLACE "^server/" "" inside "${target}")
    if(inside MATCHES "/")
      string(REGEX REPLACE "/.*" "" to "${inside}")
    else()
      set(to ".")
    endif()
    if(to STREQUAL folder)
      continue()
    endif()
    level_of("${to}" to_level)
    if(to_level EQUAL -1 OR NOT to_level LESS from_level)
      list(APPEND violations "src/server/${relative}: includes \"${target}\", but ${folder}/ may include only folders below it")
    endif()
  endforeach()
endforeach()

# 2-4. What the components, the programs and the component core may see.
function(check_tree tree forbidden_regex allowed_regex why)
  file(GLOB_RECURSE files "${PMIXPP_SOURCE_DIR}/${tree}/*.c" "${PMIXPP_SOURCE_DIR}/${tree}/*.cc"
       "${PMIXPP_SOURCE_DIR}/${tree}/*.h" "${PMIXPP_SOURCE_DIR}/${tree}/*.hpp")
  foreach(file IN LISTS files)
    quoted_includes("${file}" targets)
    foreach(target IN LISTS targets)
      if(target MATCHES "${forbidden_regex}" AND NOT target MATCHES "${allowed_regex}")
        file(RELATIVE_PATH shown "${PMIXPP_SOURCE_DIR}" "${file}")
        list(APPEND violations "${shown}: includes \"${target}\" (${why})")
      endif()
    endforeach()
  endforeach()
  set(violations "${violations}" PARENT_SCOPE)
endfunction()

check_tree(components "^(common|server|client|tool|framework)/" "^$" "components see only <pmixpp/*.h> and <pmix*.h>")
# (pmixpp_info reads the component core's inventory, framework/src/inventory.h,
# to list what is installed, and writes its index, framework/src/component_index.h;
# it links the framework, never the library's roles.)
check_tree(src/bin "^(common|server|client|tool|framework)/" "^framework/src/(inventory|component_index)[.]h$"
           "programs see only the public headers")
check_tree(framework "^(common|server|client|tool)/" "^$" "the component core knows nothing of the library's roles")

check_tree(src/common "^(server|client|tool)/" "^$" "src/common serves every role and includes none")
check_tree(src/client "^server/" "^server/(engine/self_access|jobdata/registration)[.]h$"
           "the client reaches the server only through self-access and job registration")

if(violations)
  list(LENGTH violations count)
  foreach(line IN LISTS violations)
    message("${line}")
  endforeach()
  message(FATAL_ERROR "${count} include(s) cross a layer boundary (docs/architecture.md, \"Layers\")")
endif()
message(STATUS "layers hold")
