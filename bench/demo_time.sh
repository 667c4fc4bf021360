#!/usr/bin/env bash
# scripts/demo.sh as a newcomer runs it: in a fresh clone of this checkout's
# HEAD, compiler cache off, timed. Prints the wall time, the CPU-seconds of
# every process it ran (user + sys: cmake, the compilers, the linker, the
# game), the load average around it, and the demo's last lines.
#
#   bench/demo_time.sh [DIR]      (the clone; default a new folder under /tmp)
# The dependencies must be installed already (scripts/demo.sh's apt-get
# step then does nothing): bench/README.md, "What the first build costs",
# counts apt's part separately.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$(mktemp -d /tmp/rulebook-demo.XXXXXX)}
rm -rf "$dir"
git clone -q "$here" "$dir"
echo "clone of $(git -C "$dir" rev-parse --short HEAD) in $dir"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
export CCACHE_DISABLE=1
/usr/bin/time -o "$dir.time" -f "%e %U %S" nice "$dir/scripts/demo.sh" >"$dir.out" 2>&1
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
read -r wall user sys <"$dir.time"
tail -3 "$dir.out"
awk -v w="$wall" -v u="$user" -v s="$sys" 'BEGIN { printf "demo: wall %.0f s, CPU %.1f s (user %.1f + sys %.1f)\n", w, u + s, u, s }'
