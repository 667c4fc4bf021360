# Sourced by bench scripts: cpu_seconds CMD... runs CMD (stdout discarded,
# pinned with "${PIN[@]}" when set) and prints its CPU seconds (perf stat's
# task-clock, or GNU time's user+sys). CPU time is what a busy shared machine
# disturbs least; wall time counts the other processes' turns too.
# Needs $TMP (a scratch folder). Returns 2 when neither tool exists.
if command -v perf >/dev/null && perf stat -x, -e task-clock true 2>/dev/null; then
  CPU_MEASURE="perf stat task-clock"
  cpu_seconds() {
    "${PIN[@]}" perf stat -x, -e task-clock -o "$TMP/stat" "$@" > /dev/null </dev/null
    awk -F, '/task-clock/ { printf "%.6f\n", $1 / 1000 }' "$TMP/stat"
  }
elif [[ -x /usr/bin/time ]]; then
  CPU_MEASURE="GNU time user+sys"
  cpu_seconds() {
    "${PIN[@]}" /usr/bin/time -f '%U %S' -o "$TMP/stat" "$@" > /dev/null </dev/null
    awk '{ print $1 + $2 }' "$TMP/stat"
  }
else
  CPU_MEASURE=""
fi
