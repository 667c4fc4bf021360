#!/usr/bin/env bash
# CPU time of one search decision, before against after (issue 38, item 5):
# `rulebook play GAME --seed S --agent 0=BOT` with seat 0 searching and the
# others at random, run by two binaries, interleaved, pinned to core 0;
# each run's user+system CPU time divided by seat 0's decisions in its log
# (the same game in both when the bot's logs are byte-identical). Prints
# each binary's median over the rounds and after / before.
# Usage: bench/decision_cpu.sh BEFORE_BIN AFTER_BIN ROUNDS BOT GAME [play options...]
#   e.g. bench/decision_cpu.sh /work/main/build/cli/rulebook build/cli/rulebook 3 \
#          ismcts:iterations=1000 goofspiel --seed 1
set -euo pipefail
before=$1 after=$2 rounds=$3 bot=$4; shift 4
scratch=$(mktemp -d); trap 'rm -rf "$scratch"' EXIT
pin=(); if taskset -c 0 true 2>/dev/null; then pin=(taskset -c 0); fi
one() {  # BIN -> seconds per decision of seat 0
  local log=$scratch/log.json t
  /usr/bin/time -o "$scratch/time" -f '%U %S' "${pin[@]}" "$1" play "${@:2}" --agent "0=$bot" --log "$log" >/dev/null 2>&1
  t=$(tail -1 "$scratch/time")
  python3 -c "import json,sys; u,s=map(float,sys.argv[1].split()); a=json.load(open(sys.argv[2]))['answers']; n=sum(1 for x in a if x[0]==0); print((u+s)/max(n,1), n)" "$t" "$log"
}
b=() a=()
for r in $(seq "$rounds"); do
  read -r tb nb < <(one "$before" "$@"); b+=("$tb")
  read -r ta na < <(one "$after" "$@"); a+=("$ta")
  echo "round $r: before ${tb}s ($nb decisions)  after ${ta}s ($na decisions)"
done
python3 - "${b[*]}" "${a[*]}" <<'PY'
import statistics, sys
b = [float(x) for x in sys.argv[1].split()]; a = [float(x) for x in sys.argv[2].split()]
mb, ma = statistics.median(b), statistics.median(a)
print(f"median s/decision: before {mb:.4f}  after {ma:.4f}  speed-up before/after {mb/ma:.2f}x")
PY
