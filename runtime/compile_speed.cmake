# What the first build costs (README "A first look in about three
# minutes"; bench/README.md has the measurements). Two things C++ projects
# do:
#
# - A unity build: each library's sources are compiled a few at a time as
#   one translation unit (CMake's UNITY_BUILD), so that nlohmann/json, fmt
#   and the standard library are parsed, and their inline functions
#   optimized and emitted, once per batch instead of once per file.
#   Sources in a batch share one anonymous namespace: file-local names must
#   not clash (the few that did were renamed).
# - A precompiled header of the heavy libraries, built once (for the core
#   layer) and reused by every library with GCC. Clang checks a reused
#   header's macros strictly (the layers' definitions differ), so under
#   clang (the fuzz build) each library builds its own.
#
# -DRULEBOOK_UNITY_BUILD=OFF / -DRULEBOOK_PCH=OFF compile file by file, as
# an editor's incremental build may prefer.
option(RULEBOOK_UNITY_BUILD "Compile each library's sources in batches (unity build)" ON)
option(RULEBOOK_PCH "Precompile the heavy third-party headers" ON)
set(RULEBOOK_UNITY_BATCH 8 CACHE STRING "Sources per unity batch")

set(RULEBOOK_PCH_HEADERS <nlohmann/json.hpp> <fmt/format.h> <algorithm> <functional> <map> <memory> <optional> <stdexcept>
    <string> <vector>)

# The first target given a precompiled header; the others reuse it (GCC).
set(RULEBOOK_PCH_OWNER "" CACHE INTERNAL "")

# A precompiled header is only used by a compile whose macros match the
# one that built it: a -pthread (which defines _REENTRANT) in one target's
# flags silently turned the reused header off (GCC's -Winvalid-pch, a
# warning), which is why runtime/CMakeLists.txt takes it out of RE2's flags.
function(rulebook_compile_speed target)
  if(RULEBOOK_UNITY_BUILD)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_MODE BATCH UNITY_BUILD_BATCH_SIZE ${RULEBOOK_UNITY_BATCH})
  endif()
  if(NOT RULEBOOK_PCH)
    return()
  endif()
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND RULEBOOK_PCH_OWNER)
    target_precompile_headers(${target} REUSE_FROM ${RULEBOOK_PCH_OWNER})
  else()
    target_precompile_headers(${target} PRIVATE ${RULEBOOK_PCH_HEADERS})
    if(NOT RULEBOOK_PCH_OWNER)
      set(RULEBOOK_PCH_OWNER ${target} CACHE INTERNAL "")
    endif()
  endif()
endfunction()
