#!/usr/bin/env bash
# A compiler and linker launcher (CMAKE_CXX_COMPILER_LAUNCHER,
# CMAKE_CXX_LINKER_LAUNCHER) that runs each command under /usr/bin/time and
# appends "user sys output" (CPU-seconds) to $RULEBOOK_COMPILE_LOG, so that a
# build's cost is known file by file whatever else the machine is doing.
# Without RULEBOOK_COMPILE_LOG it just runs the command. bench/compile_cost.sh
# uses it.
if [[ -z ${RULEBOOK_COMPILE_LOG:-} ]]; then
  exec "$@"
fi
output=?
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  if [[ ${args[i]} == -o ]]; then output=${args[i + 1]}; fi
done
exec /usr/bin/time -a -o "$RULEBOOK_COMPILE_LOG" -f "%U %S $output" "$@"
